package bearer

import (
	"context"
	"io"
	"net/http"
)

// Authorizer is what a transport asks of an OAuth flow (internal/app/oauth's
// *Flow).
type Authorizer interface {
	// Header is the Authorization value to send, or "".
	Header(ctx context.Context) string
	// Challenged answers a refusal; nil means: send the request again.
	Challenged(ctx context.Context, req *http.Request, rsp *http.Response) error
}

// maxRounds bounds the times one request may go again: a refresh, an
// authorization when the refreshed token is refused too, a step-up on
// insufficient_scope, and one more refusal for the flow to answer with
// its reason rather than leave the transport a bare 401. The flow itself
// refuses what would loop; this is the backstop.
const maxRounds = 4

// RoundTripper sends requests with the flow's token and answers a
// refusal (401, or 403 with error="insufficient_scope") by authorizing
// and sending the request once more, at most maxRounds times. The
// transports' own capture sees each try through OnRefused and OnRetry.
type RoundTripper struct {
	// Base sends the requests.
	Base http.RoundTripper
	// Auth is the flow.
	Auth Authorizer
	// OnRefused, when set, is told of a refusal before it is answered
	// (the transport captures its head).
	OnRefused func(req *http.Request, rsp *http.Response)
	// OnRetry, when set, is told of a request sent again (the transport
	// captures its head).
	OnRetry func(req *http.Request)
}

// RoundTrip sends req and answers the server's refusals.
func (t *RoundTripper) RoundTrip(req *http.Request) (*http.Response, error) {
	rsp, err := t.Base.RoundTrip(req)
	for round := 0; err == nil && round < maxRounds && Refusal(rsp); round++ {
		if req.Body != nil && req.Body != http.NoBody && req.GetBody == nil {
			break // the body cannot be sent again: the refusal is the answer
		}
		if t.OnRefused != nil {
			t.OnRefused(req, rsp)
		}
		if req.Body != nil {
			// The body went out once: reading what the server left of it
			// tells its sender so.
			io.Copy(io.Discard, req.Body)
		}
		ctx := req.Context()
		refused := t.Auth.Challenged(ctx, req, rsp)
		io.Copy(io.Discard, io.LimitReader(rsp.Body, 64<<10))
		rsp.Body.Close()
		if refused != nil {
			return nil, refused
		}
		next := req.Clone(ctx)
		if req.GetBody != nil {
			if next.Body, err = req.GetBody(); err != nil {
				return nil, err
			}
		}
		if v := t.Auth.Header(ctx); v != "" {
			next.Header.Set("Authorization", v)
		}
		if t.OnRetry != nil {
			t.OnRetry(next)
		}
		req = next
		rsp, err = t.Base.RoundTrip(next)
	}
	return rsp, err
}

// Refusal reports whether rsp asks for authorization: a 401, or a 403
// whose Bearer challenge says insufficient_scope (step-up).
func Refusal(rsp *http.Response) bool {
	switch rsp.StatusCode {
	case http.StatusUnauthorized:
		return true
	case http.StatusForbidden:
		cs, err := Challenges(rsp)
		if err != nil {
			return false
		}
		for _, c := range cs {
			if c.Scheme == "bearer" && c.Params["error"] == "insufficient_scope" {
				return true
			}
		}
	}
	return false
}
