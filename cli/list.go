package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/internal/app/termtext"
	"github.com/mcpscope/mcpscope/proto/mcp"
	"github.com/spf13/cobra"
)

// lister collects a listing: the names of its fields and their items.
type lister func(ctx context.Context, r *run) (fields []string, lists [][]json.RawMessage, err error)

// newListCommand builds one of `mcpscope tools|resources|prompts TARGET`.
func newListCommand(name, short string, list lister) *cobra.Command {
	f := &runFlags{}
	cmd := &cobra.Command{
		Use:   name + " [flags] TARGET",
		Short: short,
		Long: short + ": as a table at a terminal, as one JSON object when piped or with\n" +
			"--format json.",
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			target, err := f.onlyTarget(cmd, args)
			if err != nil {
				return err
			}
			io := streamsOf(cmd)
			return f.execute(cmd.Context(), target, io, func(ctx context.Context, r *run) error {
				fields, lists, err := list(ctx, r)
				if err != nil {
					return err
				}
				return r.emitListing(ctx, fields, lists)
			})
		},
	}
	f.register(cmd.Flags())
	return cmd
}

// listOne lists every page of one list method.
func listOne(method, field string) lister {
	return func(ctx context.Context, r *run) ([]string, [][]json.RawMessage, error) {
		items, err := listEntries(ctx, r, method, field)
		if err != nil {
			return nil, nil, err
		}
		return []string{field}, [][]json.RawMessage{items}, nil
	}
}

// listEntries lists every page of method and checks that each entry of
// field is an object with a string "name", as every MCP listing promises.
// The first entry that is not is a protocol violation naming its index.
func listEntries(ctx context.Context, r *run, method, field string) ([]json.RawMessage, error) {
	items, hint, err := r.session.ListAllCached(ctx, method, field, nil, r.requestOptions()...)
	if err != nil {
		return nil, err
	}
	r.noteCacheHint(method, hint)
	for i, it := range items {
		if problem := entryProblem(it); problem != "" {
			return nil, &client.ProtocolError{Msg: fmt.Sprintf("%s[%d] from %s %s", field, i, method, problem)}
		}
	}
	return items, nil
}

// shownEntry is how many bytes of a listing entry of the wrong shape are quoted.
const shownEntry = 80

// entryProblem says what is wrong with one listing entry, or "".
func entryProblem(entry json.RawMessage) string {
	var members map[string]json.RawMessage
	shown := termtext.LineMax(string(bytes.TrimSpace(entry)), shownEntry)
	if json.Unmarshal(entry, &members) != nil || members == nil {
		return "is not an object: " + shown
	}
	var name string
	if v := members["name"]; len(v) == 0 || v[0] != '"' || json.Unmarshal(v, &name) != nil {
		return `has no string "name": ` + shown
	}
	return ""
}

var listPrompts = listOne(mcp.MethodPromptsList, "prompts")

// listTools lists every tool, warning on stderr of each one whose
// x-mcp-header annotations are invalid (2026-07-28 over HTTP).
func listTools(ctx context.Context, r *run) ([]string, [][]json.RawMessage, error) {
	fields, lists, err := listOne(mcp.MethodToolsList, "tools")(ctx, r)
	if err == nil {
		r.warnInvalidToolHeaders(lists[0])
	}
	return fields, lists, err
}

// listResources lists resources and resource templates. A server that does
// not know resources/templates/list (-32601) just has no templates key.
func listResources(ctx context.Context, r *run) ([]string, [][]json.RawMessage, error) {
	fields, lists, err := listOne(mcp.MethodResourcesList, "resources")(ctx, r)
	if err != nil {
		return nil, nil, err
	}
	templates, err := listEntries(ctx, r, mcp.MethodResourceTemplatesList, "resourceTemplates")
	var rpc *client.RPCError
	switch {
	case errors.As(err, &rpc) && rpc.Err != nil && rpc.Err.Code == mcp.CodeMethodNotFound:
		return fields, lists, nil
	case err != nil:
		return nil, nil, err
	}
	return append(fields, "resourceTemplates"), append(lists, templates), nil
}
