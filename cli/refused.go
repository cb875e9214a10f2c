package cli

import (
	"errors"
	"fmt"

	"github.com/mcpscope/mcpscope/client"
	"github.com/mcpscope/mcpscope/internal/app/plural"
)

// warnLimits prints, once the session is closed, what the engine refused
// or ignored to keep a flooding server within its limits; nothing else
// tells of it without --trace.
func (r *run) warnLimits() {
	if r.session == nil {
		return
	}
	if n := r.session.RefusedServerRequests(); n > 0 {
		r.io.diag.Println(refusedWarning(n))
	}
	for _, w := range ignoredWarnings(client.TallyOf(r.transport)) {
		r.io.diag.Println(w)
	}
}

// ignoredWarnings say which MCP-Flow control messages of the server were
// ignored, as a flood of them would otherwise have grown the client.
func ignoredWarnings(ig client.Tally) []string {
	var out []string
	if ig.IgnoredStreamErrors > 0 {
		out = append(out, fmt.Sprintf("warning: the server sent %d $/streamError naming no stream mcpscope was reading or "+
			"waiting for (never opened nor referred to, or already reported); they were ignored", ig.IgnoredStreamErrors))
	}
	if ig.IgnoredShutdowns > 0 {
		out = append(out, fmt.Sprintf("warning: the server sent $/shutdown %d more times after the first; they were ignored", ig.IgnoredShutdowns))
	}
	return out
}

// refusedWarning says how many of the server's requests were answered with
// a busy error.
func refusedWarning(n uint64) string {
	return fmt.Sprintf("warning: the server sent more requests than mcpscope answers at once (%d); "+
		"%d %s refused with a busy error (%d)", client.MaxServerRequests, n, plural.Word(n, "was", "were"), client.CodeClientBusy)
}

// unsentAnswers closes the session, which makes the transport's count of
// the answers the server never got final, and fails a run that otherwise
// succeeded when there were any: the transport could not carry them, so
// the run ends as a transport failure (exit 3), never 0.
func (r *run) unsentAnswers(err error) error {
	_ = r.session.Close()
	if err != nil {
		return err
	}
	if n := client.TallyOf(r.transport).UnsentAnswers; n > 0 {
		return withExit(ExitConnection, errors.New(unsentMessage(n)))
	}
	return nil
}

// unsentMessage says how many answers to the server's requests could not
// be sent.
func unsentMessage(n uint64) string {
	if n == 1 {
		return "1 answer to the server's requests could not be sent; the server never got it"
	}
	return fmt.Sprintf("%d answers to the server's requests could not be sent; the server never got them", n)
}
