package oauthtest

import (
	"bytes"
	"io"
	"maps"
	"mime"
	"net/http"
	"net/url"
	"slices"
)

// maxBody bounds every request body the servers read.
const maxBody = 1 << 20

// Request is one HTTP request the authorization server or the resource saw.
type Request struct {
	// Host is the host:port it was sent to, telling the two servers apart.
	Host   string
	Method string
	Path   string
	Query  url.Values
	// Form is the url-encoded body's fields, nil for other bodies.
	Form   url.Values
	Header http.Header
	// Body is the body as sent (at most 1 MiB is read).
	Body []byte
}

func (r Request) clone() Request {
	r.Query = cloneValues(r.Query)
	r.Form = cloneValues(r.Form)
	r.Header = r.Header.Clone()
	r.Body = slices.Clone(r.Body)
	return r
}

func cloneValues(v url.Values) url.Values {
	if v == nil {
		return nil
	}
	out := make(url.Values, len(v))
	for k, vs := range maps.All(v) {
		out[k] = slices.Clone(vs)
	}
	return out
}

// record keeps a copy of every request, then hands it on with its body
// restored. A body over maxBody is refused with 413.
func (s *Server) record(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(io.LimitReader(r.Body, maxBody+1))
		if err != nil {
			http.Error(w, "reading the body: "+err.Error(), http.StatusBadRequest)
			return
		}
		if len(body) > maxBody {
			http.Error(w, "body too large", http.StatusRequestEntityTooLarge)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		seen := Request{
			Host:   r.Host,
			Method: r.Method,
			Path:   r.URL.Path,
			Query:  r.URL.Query(),
			Header: r.Header.Clone(),
			Body:   body,
		}
		if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt == "application/x-www-form-urlencoded" {
			// A malformed body is still recorded raw; the handler refuses it.
			seen.Form, _ = url.ParseQuery(string(body))
		}
		s.mu.Lock()
		s.requests = append(s.requests, seen)
		s.mu.Unlock()
		next.ServeHTTP(w, r)
	})
}
