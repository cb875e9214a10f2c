package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/yosida95/uritemplate/v3"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/client/toolargs"
	"github.com/mcpscope/mcpscope/internal/app/plural"
	"github.com/mcpscope/mcpscope/internal/app/termtext"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// completeFlag names the flag of prompt and read that asks
// completion/complete for one argument's values instead.
const completeFlag = "complete"

// The help --complete adds to prompt and read.
const (
	promptCompleteHelp = "With --complete ARG, print the server's suggestions for ARG instead\n" +
		"(completion/complete): ARG's text is its ARG=VALUE word (\"\" without one), the\n" +
		"other words go as context, and no argument is required."
	promptCompleteExample = "  mcpscope prompt completable-prompt --complete name department=Sales -- npx -y @modelcontextprotocol/server-everything stdio"
	readCompleteHelp      = "With --complete VAR, URI is a resource template (demo://x/{id}) and read prints\n" +
		"the server's suggestions for its variable VAR instead: mcpscope read TEMPLATE\n" +
		"--complete VAR [VAR=VALUE…] TARGET."
	readCompleteExample = "  mcpscope read 'demo://resource/dynamic/text/{resourceId}' --complete resourceId resourceId=12 -- npx -y @modelcontextprotocol/server-everything stdio"
)

// registerComplete adds --complete to a short form, and its help and
// example to the command's: what is "ARG" or "VAR", of whose it is ("the
// prompt's").
func registerComplete(cmd *cobra.Command, what, of, long, example string) *string {
	var name string
	cmd.Flags().StringVar(&name, completeFlag, "", "print the server's suggestions for "+of+" `"+what+"` (completion/complete) "+
		"instead: its text is its "+what+"=VALUE word, the other words go as context")
	cmd.Long += "\n\n" + long
	cmd.Example += "\n" + example
	return &name
}

// completion is one completion/complete asked headless: what is completed,
// the argument, the words that give its text and the context.
type completion struct {
	ref   mcp.CompleteReference
	what  string   // "prompt" or "template", for messages
	arg   string   // the argument or variable completed
	names []string // the arguments the prompt or template has
	words []string
	read  toolargs.Source
}

// completePrompt prints the suggestions for the argument arg of the
// prompt name, after checking with prompts/list that the prompt has it.
func (r *run) completePrompt(ctx context.Context, name, arg string, words []string, read toolargs.Source) error {
	prompts, err := listEntries(ctx, r, mcp.MethodPromptsList, "prompts")
	if err != nil {
		return err
	}
	entry, err := findEntry(prompts, name, "prompt", "prompts")
	if err != nil {
		return err
	}
	var prompt struct {
		Arguments []struct {
			Name string `json:"name"`
		} `json:"arguments"`
	}
	_ = json.Unmarshal(entry, &prompt) // an argument list of the wrong shape leaves no names
	c := completion{ref: client.PromptRef(name), what: "prompt", arg: arg, words: words, read: read}
	for _, a := range prompt.Arguments {
		c.names = append(c.names, a.Name)
	}
	return r.complete(ctx, c)
}

// completeTemplate prints the suggestions for the variable arg of the URI
// template tmpl (ref/resource names the template, not an expansion).
func (r *run) completeTemplate(ctx context.Context, tmpl, arg string, words []string, read toolargs.Source) error {
	t, err := uritemplate.New(tmpl)
	if err != nil {
		return usagef("%s is not a URI template: %v", termtext.Quote(tmpl), err)
	}
	c := completion{ref: client.TemplateRef(tmpl), what: "template", arg: arg, names: t.Varnames(), words: words, read: read}
	return r.complete(ctx, c)
}

// complete checks the words against the names, asks, and prints the
// values: one a line as text, {"values","total","hasMore"} as JSON.
func (r *run) complete(ctx context.Context, c completion) error {
	given, err := toolargs.Strings(c.what, c.names, c.words, c.read)
	if err == nil && !slices.Contains(c.names, c.arg) {
		err = fmt.Errorf("--complete %s: not an argument of the %s; it takes %s", termtext.Quote(c.arg), c.what, quotedNames(c.names))
	}
	if err != nil {
		return usagef("%s %s: %w", c.what, termtext.Quote(refName(c.ref)), err)
	}
	value := given[c.arg]
	delete(given, c.arg)
	if !r.session.AdvertisesCompletions() {
		r.io.diag.Println("warning: the server does not advertise completions (capabilities.completions); asking anyway")
	}
	raw, err := r.call(ctx, mcp.MethodCompletionComplete, client.CompletionParams(c.ref, c.arg, value, given))
	if err != nil {
		return err
	}
	got, err := client.DecodeCompletion(raw)
	if err != nil {
		return err
	}
	if got.Dropped > 0 {
		r.io.diag.Println(fmt.Sprintf("warning: %s dropped: over %d values, or over %d bytes each",
			plural.Count(got.Dropped, "suggested value", "suggested values"), client.MaxCompletionValues, client.MaxCompletionValue))
	}
	doc, err := json.Marshal(got)
	if err != nil {
		return err
	}
	return r.printResult("", doc, func(int, bool) string { return suggestionLines(got) })
}

// suggestionLines is the text of suggestions: one value a line, each made
// safe for a terminal, and a last line in parentheses when the server has
// more than it sent, or none at all.
func suggestionLines(s client.Suggestions) string {
	var b strings.Builder
	for _, v := range s.Values {
		b.WriteString(termtext.Line(v))
		b.WriteByte('\n')
	}
	switch {
	case s.HasMore && s.Total != nil:
		fmt.Fprintf(&b, "(%d of %d; the server has more)\n", len(s.Values), *s.Total)
	case s.HasMore:
		b.WriteString("(the server has more)\n")
	case len(s.Values) == 0:
		b.WriteString("(no suggestions)\n")
	}
	return b.String()
}

// refName is the prompt name or the URI template a reference names.
func refName(ref mcp.CompleteReference) string {
	if ref.Type == "ref/resource" {
		return ref.URI
	}
	return ref.Name
}

// quotedNames lists names quoted for a message, "no arguments" for none.
func quotedNames(names []string) string {
	if len(names) == 0 {
		return "no arguments"
	}
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = termtext.Quote(n)
	}
	return strings.Join(q, ", ")
}
