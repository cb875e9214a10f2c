package cli

import "github.com/spf13/cobra"

// newToolCommand builds `mcpscope tool NAME [KEY=VALUE…] TARGET`.
func newToolCommand() *cobra.Command {
	return &cobra.Command{Use: "tool NAME [KEY=VALUE|KEY:=JSON|KEY=@FILE …] TARGET", Short: "Call a tool, its arguments typed by its schema", Hidden: true,
		RunE: func(*cobra.Command, []string) error { return usagef("tool: not built yet") }}
}

// newPromptCommand builds `mcpscope prompt NAME [KEY=VALUE…] TARGET`.
func newPromptCommand() *cobra.Command {
	return &cobra.Command{Use: "prompt NAME [KEY=VALUE…] TARGET", Short: "Get a prompt", Hidden: true,
		RunE: func(*cobra.Command, []string) error { return usagef("prompt: not built yet") }}
}

// newReadCommand builds `mcpscope read URI TARGET`.
func newReadCommand() *cobra.Command {
	return &cobra.Command{Use: "read URI TARGET", Short: "Read a resource", Hidden: true,
		RunE: func(*cobra.Command, []string) error { return usagef("read: not built yet") }}
}
