package cli

import (
	"context"
	"errors"
)

// wt relays the session (see proxy.go).
func (r *proxyRun) wt(ctx context.Context, target string) error {
	return errors.New("not built yet")
}
