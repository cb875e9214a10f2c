package cli

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/client/answers"
	"github.com/mcpscope/mcpscope/internal/app/junit"
	"github.com/mcpscope/mcpscope/internal/app/termtext"
	"github.com/mcpscope/mcpscope/proto/mcp"
	"github.com/mcpscope/mcpscope/recordings/against"
)

// replayAgainstHelp is what `replay --help` says of --against.
const replayAgainstHelp = `replay FILE --against TARGET opens a fresh session to TARGET (its own handshake,
offering the protocol version the recording settled on unless --protocol says
otherwise) and sends the recording's requests again, in order, under new ids.
initialize, server/discover and every notification are not sent again; nor is
subscriptions/listen, a request the recording holds no answer for, or a request
of an interactive session it did not start. A modern-era call is sent once: its
input_required rounds are the engine's. The server's questions (elicitation/
create, sampling/createMessage, roots/list, and interaction.prompt in an
interactive session started by interaction.start) get the answers the recording
holds for them, in order per kind; --answers does not apply.

Each answer is compared with the recorded one as {"result": …} or {"error": …};
an interactive session is compared by its outcome, as mcpscope script prints it.
A line per request says ok, differs, failed or skipped; a difference shows its JSON
path, the recorded value and the new one. A tools/call whose new result is a
failure (isError: true, or structuredContent missing or failing the tool's
outputSchema) is failed, whatever the recording holds. Lists of tools and prompts (by name),
resources (by uri) and resource templates (by uriTemplate) are matched by that
key, so that tools added, removed or changed (schema, description, annotations)
are named.

Never compared: the JSON-RPC envelope (jsonrpc, id), and these members at any
depth: _meta, sessionId, requestId, progressToken, taskId, timestamp, createdAt,
updatedAt, lastUpdatedAt, lastActivityAt, expiresAt. --ignore PATH adds paths:
$ the answer, .name a member, ["name"] or ['name'] any member name, [N] an
element, .* or [*] any member or element, ..name that step at any depth, as in
--ignore '$.result.tools[*].annotations' --ignore '$..bookingRef'.

--junit FILE also writes the outcome as a JUnit XML report for CI: one
testsuite named after the recording, a testcase per request named "#N" and its
line's label, of class its method; an answer that differs or failed is a
<failure> holding the difference lines, a request lost with the connection an
<error>, a request not sent again <skipped>. The report is written whole
(temporary file, then renamed), also when the run fails: it holds every step
up to the failure.

Exit 0 when every answer matches, 1 when one differs or failed (or the server
asks a question the recording has no answer for), 2 for a bad FILE or flag, and
the usual codes when the connection fails.`

// runReplayAgainst re-sends a recording's requests to a target and diffs
// the answers: `mcpscope replay FILE --against TARGET`.
func runReplayAgainst(cmd *cobra.Command, args []string, f *replayFlags) error {
	positional, target, err := f.run.target(cmd, args)
	if err != nil {
		return err
	}
	switch {
	case len(positional) == 0:
		return usagef("missing FILE: mcpscope replay FILE --against TARGET")
	case len(positional) > 1:
		return usagef("replay --against takes one FILE before the TARGET, got %d arguments", len(positional))
	case f.run.answers != "":
		return usagef("--answers does not apply to replay --against: the server's questions get the answers the recording holds")
	case f.run.record != "" && sameFile(f.run.record, positional[0]):
		return usagef("--record names the recording being replayed; record the new session to another file")
	}
	if err := checkReportDir("--junit", f.junit); err != nil {
		return err
	}
	opts, err := against.CompareOptions(f.ignore)
	if err != nil {
		return usagef("--ignore %w", err)
	}
	sess, err := against.Read(positional[0])
	if err != nil {
		return &UsageError{Err: err}
	}
	io := streamsOf(cmd)
	for _, w := range sess.Warnings {
		io.diag.Println("warning: " + w)
	}
	if sess.Redacted && sess.SendsMasked() {
		io.diag.Println("warning: the recording was made with credentials masked and some requests carry a masked value (<redacted N bytes>): they are sent as recorded; record with --no-redact to replay them whole")
	}
	if !sess.Sendable() {
		return usagef("%s holds no request to send again: nothing past the handshake was answered", positional[0])
	}
	if !cmd.Flags().Changed("protocol") {
		f.run.protocol = sess.Protocol
	}
	f.run.recorded = &sess.Answers
	rp := against.New(sess, opts, io.out)
	err = f.run.execute(cmd.Context(), target, io, func(ctx context.Context, r *run) error {
		return rp.Run(ctx, replayPeer{r})
	})
	err = rp.Stopped(err)
	if f.junit == "" {
		return err
	}
	return writeReplayJUnit(f.junit, rp.JUnit(filepath.Base(positional[0]), err), err, cmd)
}

// writeReplayJUnit writes the replay's JUnit report, whatever the run's
// outcome err. A report that cannot be written fails a run that otherwise
// passed; after a failed run it is a warning beside the run's error.
func writeReplayJUnit(path string, suite junit.Suite, err error, cmd *cobra.Command) error {
	werr := junit.WriteFile(path, suite)
	switch {
	case werr == nil:
		return err
	case err == nil:
		return &UsageError{Err: werr}
	}
	cmd.PrintErrln(termtext.SafeLine("warning: " + werr.Error()))
	return err
}

// checkReportDir refuses, before anything is sent, a report FILE whose
// folder does not exist.
func checkReportDir(flag, path string) error {
	if path == "" {
		return nil
	}
	if st, err := os.Stat(filepath.Dir(path)); err != nil || !st.IsDir() {
		return usagef("%s %s: its folder does not exist", flag, path)
	}
	return nil
}

// replayPeer is a headless run as the peer of a replay.
type replayPeer struct{ r *run }

// Call sends one request, as mcpscope call does.
func (p replayPeer) Call(ctx context.Context, method string, params any) (json.RawMessage, error) {
	return p.r.call(ctx, method, params)
}

// Interact walks an interactive session, as mcpscope script does.
func (p replayPeer) Interact(ctx context.Context, start mcp.InteractionStartParams, prompts answers.Prompts) (json.RawMessage, error) {
	s := &script{prompts: prompts}
	return s.walker(p.r).Interact(ctx, p.r.session, start)
}

// ToolFailure judges a tools/call result, as mcpscope call does.
func (p replayPeer) ToolFailure(ctx context.Context, params json.RawMessage, result []byte) *client.ToolFailure {
	return p.r.toolFailure(ctx, params, result)
}

// sameFile reports whether two paths name one file (or the same name).
func sameFile(a, b string) bool {
	if a == b {
		return true
	}
	sa, errA := os.Stat(a)
	sb, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(sa, sb)
}
