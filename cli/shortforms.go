package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/client/toolargs"
	"github.com/mcpscope/mcpscope/internal/app/mcpconfig"
	"github.com/mcpscope/mcpscope/internal/app/termtext"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// argumentRules is the help every short form shares on its words.
const argumentRules = "Each argument is one word:\n" +
	"  KEY=VALUE    VALUE typed by the schema: string as typed; integer and number\n" +
	"               parsed (1.5 is no integer); boolean true or false; an enum's,\n" +
	"               const's or titled oneOf's value (or title); a type union tries\n" +
	"               its other types first, then string; no type: JSON, else string\n" +
	"  KEY:=JSON    any JSON value (objects, arrays, numbers, null)\n" +
	"  KEY=@FILE    the file's contents as VALUE (@- reads standard input)\n" +
	"  KEY:=@FILE   the file's contents parsed as JSON\n" +
	"  KEY=@@TEXT   the text @TEXT\n" +
	"A key given twice, a key the schema does not declare (unless its\n" +
	"additionalProperties allows it), a value of the wrong type and a required key\n" +
	"left out are refused before anything is sent (exit 2), in the schema's words."

// newToolCommand builds `mcpscope tool NAME [KEY=VALUE…] TARGET`.
func newToolCommand() *cobra.Command {
	f := &runFlags{}
	var insist bool
	cmd := &cobra.Command{
		Use:   "tool NAME [KEY=VALUE|KEY:=JSON|KEY=@FILE …] TARGET",
		Short: "Call a tool, its arguments typed by its schema",
		Long: "Call the tool NAME with arguments typed by its inputSchema, and print the result\n" +
			"as mcpscope call tools/call does (a failed tool result exits with status 1).\n" +
			"The tool is found with tools/list (every page, each run); an unknown NAME is\n" +
			"refused naming the closest tools.\n\n" + argumentRules,
		Example: "  mcpscope tool get-sum a=2 b=3 -- npx -y @modelcontextprotocol/server-everything stdio\n" +
			"  mcpscope tool echo message=@notes.txt http://127.0.0.1:3001/mcp\n" +
			"  mcpscope tool search 'filters:={\"year\":2024}' limit=5 myserver",
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			name, words, target, err := shortFormArgs(f, cmd, args, "NAME")
			if err != nil {
				return err
			}
			read := fileSource(cmd.InOrStdin())
			return f.execute(cmd.Context(), target, streamsOf(cmd), func(ctx context.Context, r *run) error {
				params, err := r.toolParams(ctx, name, words, read)
				if err != nil {
					return err
				}
				res, err := r.callJudged(ctx, mcp.MethodToolsCall, params, insist)
				return r.emitJudged(ctx, res, err)
			})
		},
	}
	f.register(cmd.Flags())
	cmd.Flags().BoolVar(&insist, insistFlag, false, "call the tool even when its x-mcp-header annotations are invalid (2026-07-28 over HTTP), without its Mcp-Param headers")
	return cmd
}

// newPromptCommand builds `mcpscope prompt NAME [KEY=VALUE…] TARGET`.
func newPromptCommand() *cobra.Command {
	f := &runFlags{}
	var complete *string
	cmd := &cobra.Command{
		Use:   "prompt NAME [KEY=VALUE…] TARGET",
		Short: "Get a prompt, its arguments checked against its declared ones",
		Long: "Get the prompt NAME with prompts/get and print the result. The prompt is found\n" +
			"with prompts/list (every page, each run); an unknown NAME, a key the prompt does\n" +
			"not declare and a required argument left out are refused before anything is sent\n" +
			"(exit 2). Prompt arguments are strings: KEY=VALUE and KEY=@FILE give the text,\n" +
			"KEY:=JSON only a JSON string.",
		Example: "  mcpscope prompt args-prompt city=Paris -- npx -y @modelcontextprotocol/server-everything stdio",
		Args:    cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			name, words, target, err := shortFormArgs(f, cmd, args, "NAME")
			if err != nil {
				return err
			}
			read := fileSource(cmd.InOrStdin())
			return f.execute(cmd.Context(), target, streamsOf(cmd), func(ctx context.Context, r *run) error {
				if cmd.Flags().Changed(completeFlag) {
					return r.completePrompt(ctx, name, *complete, words, read)
				}
				params, err := r.promptParams(ctx, name, words, read)
				if err != nil {
					return err
				}
				res, err := r.call(ctx, mcp.MethodPromptsGet, params)
				if err != nil {
					return err
				}
				return r.emit(ctx, res)
			})
		},
	}
	f.register(cmd.Flags())
	complete = registerComplete(cmd, "ARG", "the prompt's", promptCompleteHelp, promptCompleteExample)
	return cmd
}

// newReadCommand builds `mcpscope read URI TARGET`.
func newReadCommand() *cobra.Command {
	f := &runFlags{}
	var complete *string
	var subscribe bool
	cmd := &cobra.Command{
		Use:     "read URI TARGET",
		Short:   "Read a resource",
		Long:    "Read the resource URI with resources/read and print the result. With --subscribe, subscribe to it too and print it again after each update, until --max-time or Ctrl-C (exit 0 once a read printed).",
		Example: "  mcpscope read demo://resource/static/document/architecture.md -- npx -y @modelcontextprotocol/server-everything stdio",
		Args:    cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			uri, words, target, err := readArgs(f, cmd, args)
			if err != nil {
				return err
			}
			completing := cmd.Flags().Changed(completeFlag)
			if len(words) > 0 && !completing {
				return usagef("read takes one URI before the TARGET, got %s after it", quote(words[0]))
			}
			read := fileSource(cmd.InOrStdin())
			if subscribe {
				if completing {
					return usagef("--subscribe and --complete do not go together: one watches a resource, the other asks for a template's values")
				}
				w := &resourceWatch{}
				return watchEnd(cmd.Context(), w, f.execute(cmd.Context(), target, streamsOf(cmd), func(ctx context.Context, r *run) error {
					return r.readAndWatch(ctx, uri, w)
				}))
			}
			return f.execute(cmd.Context(), target, streamsOf(cmd), func(ctx context.Context, r *run) error {
				if completing {
					return r.completeTemplate(ctx, uri, *complete, words, read)
				}
				res, err := r.call(ctx, mcp.MethodResourcesRead, map[string]string{"uri": uri})
				if err != nil {
					return err
				}
				r.noteCacheHint(mcp.MethodResourcesRead, mcp.ReadCacheHint(res))
				defer r.sayCacheHints()
				return r.emit(ctx, res)
			})
		},
	}
	f.register(cmd.Flags())
	complete = registerComplete(cmd, "VAR", "the URI template's", readCompleteHelp, readCompleteExample)
	cmd.Flags().BoolVar(&subscribe, "subscribe", false, "subscribe to the resource and read it again after each update, until --max-time or Ctrl-C")
	return cmd
}

// shortFormArgs splits the arguments of a short form into its first word
// (what names the tool, prompt or resource), the words after it, and the
// TARGET.
func shortFormArgs(f *runFlags, cmd *cobra.Command, args []string, first string) (string, []string, Target, error) {
	positional, target, err := f.target(cmd, args)
	if err != nil {
		return "", nil, Target{}, err
	}
	if len(positional) == 0 || positional[0] == "" {
		return "", nil, Target{}, usagef("missing %s: mcpscope %s", first, cmd.Use)
	}
	return positional[0], positional[1:], target, nil
}

// readArgs splits the arguments of read into its URI, the first whatever
// it looks like (a URI may well look like a URL TARGET), the words between
// it and the TARGET (only --complete takes any), and the TARGET.
func readArgs(f *runFlags, cmd *cobra.Command, args []string) (string, []string, Target, error) {
	dashAt := cmd.ArgsLenAtDash()
	if len(args) == 0 || dashAt == 0 || args[0] == "" {
		return "", nil, Target{}, usagef("missing URI: mcpscope %s", cmd.Use)
	}
	if dashAt > 0 {
		dashAt--
	}
	positional, target, err := f.targetAt(cmd, args[1:], dashAt)
	if err != nil {
		return "", nil, Target{}, err
	}
	return args[0], positional, target, nil
}

// toolParams finds the tool name among the server's tools and builds the
// params of its tools/call from words. The listing's outputSchemas serve
// the judgement of the result (toolFailure) without listing again.
func (r *run) toolParams(ctx context.Context, name string, words []string, read toolargs.Source) (json.RawMessage, error) {
	var tool struct {
		InputSchema json.RawMessage `json:"inputSchema"`
	}
	tools, err := listEntries(ctx, r, mcp.MethodToolsList, "tools")
	var rpc *client.RPCError
	switch {
	case errors.As(err, &rpc) && rpc.Err != nil && rpc.Err.Code == mcp.CodeMethodNotFound:
		// A dialect that carries tools/call only (seed 004's tool frames):
		// the words go typed by their own look, unchecked.
		r.io.diag.Println("warning: the server does not list its tools (" + termtext.OneLine(rpc.Err.Message) +
			"); the arguments of " + termtext.Quote(name) + " are typed without its schema")
	case err != nil:
		return nil, err
	default:
		r.schemas = outputSchemas{listed: true, byTool: client.OutputSchemas(tools)}
		r.taskTools.learn(tools)
		entry, err := findEntry(tools, name, "tool", "tools")
		if err != nil {
			return nil, err
		}
		_ = json.Unmarshal(entry, &tool) // listEntries checked it is an object
	}
	args, err := toolargs.Convert(tool.InputSchema, words, read)
	if err != nil {
		return nil, usagef("tool %s: %w", termtext.Quote(name), err)
	}
	for _, w := range args.Warnings {
		r.io.diag.Println("warning: tool " + termtext.Quote(name) + ": " + w)
	}
	return json.Marshal(struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	}{name, args.Object})
}

// promptParams finds the prompt name among the server's prompts and
// builds the params of its prompts/get from words.
func (r *run) promptParams(ctx context.Context, name string, words []string, read toolargs.Source) (json.RawMessage, error) {
	prompts, err := listEntries(ctx, r, mcp.MethodPromptsList, "prompts")
	if err != nil {
		return nil, err
	}
	entry, err := findEntry(prompts, name, "prompt", "prompts")
	if err != nil {
		return nil, err
	}
	var prompt struct {
		Arguments json.RawMessage `json:"arguments"`
	}
	_ = json.Unmarshal(entry, &prompt)
	args, err := toolargs.ForPrompt(prompt.Arguments, words, read)
	if err != nil {
		return nil, usagef("prompt %s: %w", termtext.Quote(name), err)
	}
	return json.Marshal(mcp.GetPromptParams{Name: name, Arguments: args})
}

// findEntry returns the listing entry called name, or a usage error naming
// the closest names (what is "tool" or "prompt", command the listing).
func findEntry(entries []json.RawMessage, name, what, command string) (json.RawMessage, error) {
	names := make([]string, 0, len(entries))
	for _, e := range entries {
		var n struct {
			Name string `json:"name"`
		}
		_ = json.Unmarshal(e, &n)
		if n.Name == name {
			return e, nil
		}
		names = append(names, n.Name)
	}
	msg := fmt.Sprintf("the server has no %s %s", what, termtext.Quote(name))
	if close := mcpconfig.Closest(name, names); len(close) > 0 {
		quoted := make([]string, len(close))
		for i, n := range close {
			quoted[i] = termtext.Quote(n)
		}
		msg += "; did you mean " + strings.Join(quoted, " or ") + "?"
	}
	return nil, usagef("%s (mcpscope %s lists them)", msg, command)
}

// maxArgumentFile bounds a file read by KEY=@FILE.
const maxArgumentFile = maxParamsSize

// fileSource reads KEY=@FILE: the file, or standard input for "-" (once).
func fileSource(stdin io.Reader) toolargs.Source {
	stdinRead := false
	return func(path string) ([]byte, error) {
		var r io.Reader
		if path == "-" {
			if stdin == nil || stdinRead {
				return nil, fmt.Errorf("standard input is read once, by the first @-")
			}
			stdinRead = true
			r = stdin
		} else {
			file, err := os.Open(path)
			if err != nil {
				return nil, err
			}
			defer file.Close()
			r = file
		}
		b, err := io.ReadAll(io.LimitReader(r, maxArgumentFile+1))
		if err != nil {
			return nil, fmt.Errorf("cannot read %s: %w", quote(path), err)
		}
		if len(b) > maxArgumentFile {
			return nil, fmt.Errorf("%s is over %d bytes", quote(path), maxArgumentFile)
		}
		return b, nil
	}
}
