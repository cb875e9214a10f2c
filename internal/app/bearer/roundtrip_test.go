package bearer

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
)

// fakeAuth answers refusals with a new token, or with err.
type fakeAuth struct {
	token      string
	challenged int
	err        error
}

func (a *fakeAuth) Header(context.Context) string {
	if a.token == "" {
		return ""
	}
	return "Bearer " + a.token
}

func (a *fakeAuth) Challenged(_ context.Context, _ *http.Request, _ *http.Response) error {
	a.challenged++
	a.token = strings.Repeat("t", a.challenged)
	return a.err
}

// scripted answers each request with the next status, recording what it got.
type scripted struct {
	statuses []int
	header   http.Header
	bodies   []string
	auths    []string
}

func (s *scripted) RoundTrip(req *http.Request) (*http.Response, error) {
	var body string
	if req.Body != nil {
		b, _ := io.ReadAll(req.Body)
		body = string(b)
	}
	s.bodies = append(s.bodies, body)
	s.auths = append(s.auths, req.Header.Get("Authorization"))
	status := s.statuses[0]
	if len(s.statuses) > 1 {
		s.statuses = s.statuses[1:]
	}
	h := s.header.Clone()
	if h == nil {
		h = http.Header{}
	}
	return &http.Response{StatusCode: status, Header: h, Body: io.NopCloser(strings.NewReader("")), Request: req}, nil
}

func post(t *testing.T, body string) *http.Request {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, "http://127.0.0.1:1/mcp", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	return req
}

// TestRoundTripperAuthorizesAndSendsAgain: a 401 runs the flow, and the
// request goes again, body and all, with the new token; the transport's
// capture hears of the refusal and of the second try.
func TestRoundTripperAuthorizesAndSendsAgain(t *testing.T) {
	base := &scripted{statuses: []int{401, 200}}
	auth := &fakeAuth{}
	var refused, retried int
	rt := &RoundTripper{Base: base, Auth: auth,
		OnRefused: func(*http.Request, *http.Response) { refused++ },
		OnRetry:   func(*http.Request) { retried++ }}
	rsp, err := rt.RoundTrip(post(t, `{"jsonrpc":"2.0"}`))
	if err != nil || rsp.StatusCode != 200 {
		t.Fatalf("got %v, %v", rsp, err)
	}
	if auth.challenged != 1 || refused != 1 || retried != 1 {
		t.Fatalf("challenged %d, refused %d, retried %d; want 1 each", auth.challenged, refused, retried)
	}
	if base.bodies[1] != `{"jsonrpc":"2.0"}` || base.auths[1] != "Bearer t" {
		t.Fatalf("second try: body %q, Authorization %q", base.bodies[1], base.auths[1])
	}
}

// TestRoundTripperBoundsTheRounds: a server that refuses every token gets
// at most maxRounds authorizations for one request, then its refusal is
// the answer.
func TestRoundTripperBoundsTheRounds(t *testing.T) {
	base := &scripted{statuses: []int{401}}
	auth := &fakeAuth{}
	rsp, err := (&RoundTripper{Base: base, Auth: auth}).RoundTrip(post(t, "{}"))
	if err != nil || rsp.StatusCode != 401 {
		t.Fatalf("got %v, %v", rsp, err)
	}
	if auth.challenged != maxRounds || len(base.bodies) != maxRounds+1 {
		t.Fatalf("challenged %d times, %d tries; want %d and %d", auth.challenged, len(base.bodies), maxRounds, maxRounds+1)
	}
}

// TestRoundTripperStepUpOnlyForInsufficientScope: a 403 runs the flow only
// when its Bearer challenge says insufficient_scope.
func TestRoundTripperStepUpOnlyForInsufficientScope(t *testing.T) {
	for _, tc := range []struct {
		challenge string
		want      int
	}{
		{`Bearer error="insufficient_scope", scope="a b"`, 1},
		{`Bearer error="invalid_token"`, 0},
		{``, 0},
	} {
		base := &scripted{statuses: []int{403, 200}, header: http.Header{}}
		if tc.challenge != "" {
			base.header.Set("WWW-Authenticate", tc.challenge)
		}
		auth := &fakeAuth{}
		if _, err := (&RoundTripper{Base: base, Auth: auth}).RoundTrip(post(t, "{}")); err != nil {
			t.Fatal(err)
		}
		if auth.challenged != tc.want {
			t.Errorf("%q: challenged %d times, want %d", tc.challenge, auth.challenged, tc.want)
		}
	}
}

// TestRoundTripperFlowFailure: the flow's error is the request's.
func TestRoundTripperFlowFailure(t *testing.T) {
	want := errors.New("refused")
	_, err := (&RoundTripper{Base: &scripted{statuses: []int{401}}, Auth: &fakeAuth{err: want}}).RoundTrip(post(t, "{}"))
	if !errors.Is(err, want) {
		t.Fatalf("got %v, want %v", err, want)
	}
}

// TestRoundTripperBodyOnce: a body that cannot be read again is not sent
// again: the refusal is the answer and no flow runs.
func TestRoundTripperBodyOnce(t *testing.T) {
	req := post(t, "{}")
	req.GetBody = nil
	auth := &fakeAuth{}
	rsp, err := (&RoundTripper{Base: &scripted{statuses: []int{401, 200}}, Auth: auth}).RoundTrip(req)
	if err != nil || rsp.StatusCode != 401 || auth.challenged != 0 {
		t.Fatalf("got %v, %v after %d challenges", rsp, err, auth.challenged)
	}
}
