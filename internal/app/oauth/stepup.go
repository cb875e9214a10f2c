package oauth

import (
	"fmt"
	"slices"
	"strings"
)

// maxStepUps bounds the step-up authorizations (a 403 insufficient_scope
// answered by authorizing for more scope) of one run: a server asking for
// a new scope each time opens the browser this many times, not once a
// request.
const maxStepUps = 2

// scopeKey is the scope set want in one order: the key of a step-up.
func scopeKey(want []string) string {
	s := slices.Clone(want)
	slices.Sort(s)
	return strings.Join(slices.Compact(s), " ")
}

// stepUpRefusal says why the flow does not authorize again for the scope
// want: it did for that scope set already this run, or it reached
// maxStepUps. nil means it may.
func (f *Flow) stepUpRefusal(want []string) error {
	key := scopeKey(want)
	f.mu.Lock()
	defer f.mu.Unlock()
	switch {
	case f.stepUps[key]:
		return fmt.Errorf("the server asks again for the scope %q, which mcpscope authorized for already this run (403 insufficient_scope again); not authorizing again, which would loop", key)
	case len(f.stepUps) >= maxStepUps:
		return fmt.Errorf("the server asks for more scope again (%q, 403 insufficient_scope); mcpscope authorized for more scope %d times this run, the most it does in a run, and does not open the browser again", key, maxStepUps)
	}
	return nil
}

// steppedUp records a step-up authorization for the scope want.
func (f *Flow) steppedUp(want []string) {
	f.mu.Lock()
	if f.stepUps == nil {
		f.stepUps = map[string]bool{}
	}
	f.stepUps[scopeKey(want)] = true
	f.mu.Unlock()
}
