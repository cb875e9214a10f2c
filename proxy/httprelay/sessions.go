package httprelay

import (
	"net/http"
	"net/url"
)

// hostSession is the host's session a request of the host belongs to
// (proxy.Hop.Session): its Mcp-Session-Id, or, on a legacy HTTP+SSE
// server, the endpoint its stream gave it to post to (path and query,
// which name the session: /messages?sessionId=…). "" otherwise.
func (r *Relay) hostSession(req *http.Request) string {
	if v := req.Header.Get("Mcp-Session-Id"); v != "" {
		return v
	}
	if req.Method != http.MethodPost {
		return ""
	}
	key := "endpoint " + req.URL.RequestURI()
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.endpoints[key] > 0 {
		return key
	}
	return ""
}

// openEndpoint notes the endpoint a legacy stream (the host's request
// req) gave as data, and returns the session it names; closeEndpoint
// forgets it when the stream ends.
func (r *Relay) openEndpoint(req *http.Request, data string) string {
	u, err := url.Parse(data)
	if err != nil {
		return ""
	}
	key := "endpoint " + req.URL.ResolveReference(u).RequestURI()
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.endpoints == nil {
		r.endpoints = map[string]int{}
	}
	r.endpoints[key]++
	return key
}

// closeEndpoint forgets an endpoint openEndpoint noted.
func (r *Relay) closeEndpoint(key string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.endpoints[key]--; r.endpoints[key] <= 0 {
		delete(r.endpoints, key)
	}
}
