package cli

import "github.com/spf13/cobra"

// newSkillsCommand builds `mcpscope skills [--verify] TARGET`.
func newSkillsCommand() *cobra.Command {
	return &cobra.Command{Use: "skills [flags] TARGET", Short: "List the server's skills (the Skills extension); --verify checks them", Hidden: true,
		RunE: func(*cobra.Command, []string) error { return usagef("skills: not built yet") }}
}
