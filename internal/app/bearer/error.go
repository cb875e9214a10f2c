package bearer

import (
	"errors"
	"fmt"
)

// Error is why an authorization failed: what an Authorizer's Challenged
// returns when the request must not go again.
type Error struct {
	// Resource is the protected resource (the MCP server's URL).
	Resource string
	// Err is the cause.
	Err error
}

func (e *Error) Error() string {
	return fmt.Sprintf("authorizing at the server of %s: %v", e.Resource, e.Err)
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// ErrTokenRefused says the server refused with 401 the token its
// authorization server had just issued: authorizing again would loop.
var ErrTokenRefused = errors.New("the server refused the token its authorization server just issued (401 again); not authorizing again, which would loop")
