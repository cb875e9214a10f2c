package cli

import (
	"fmt"

	"github.com/mcpscope/mcpscope/client"
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
}

// refusedWarning says how many of the server's requests were answered with
// a busy error.
func refusedWarning(n uint64) string {
	return fmt.Sprintf("warning: the server sent more requests than mcpscope answers at once (%d); "+
		"%d were refused with a busy error (%d)", client.MaxServerRequests, n, client.CodeClientBusy)
}
