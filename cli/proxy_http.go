package cli

import (
	"context"
	"errors"
)

// http relays the session (see proxy.go).
func (r *proxyRun) http(ctx context.Context, target string) error {
	return errors.New("not built yet")
}
