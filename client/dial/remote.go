package dial

import (
	"net/http"
	"strings"

	"github.com/mcpscope/mcpscope/transports/httpconf"
)

// Remote is what every network transport takes from the options alike:
// the extra headers and the pinned certificate hashes.
type Remote struct {
	Header     http.Header
	CertHashes []string
}

// RemoteOf parses the options every network transport shares. flowOnly
// names the transport when the MCP-Flow-only options (--encoding,
// --stream-out) must be refused; "" accepts them.
func RemoteOf(o Options, flowOnly string) (Remote, error) {
	if flowOnly != "" {
		for _, f := range []struct {
			name string
			set  bool
		}{
			{"--encoding", o.Encoding != ""},
			{"--stream-out", o.StreamOut != ""},
		} {
			if f.set {
				return Remote{}, optionErrorf("%s applies to MCP-Flow, not to the %s transport", f.name, flowOnly)
			}
		}
	}
	hdr, err := ParseHeaders(o.Headers)
	if err != nil {
		return Remote{}, err
	}
	r := Remote{Header: hdr}
	if o.CertHash != "" {
		r.CertHashes = strings.Split(o.CertHash, ",")
	}
	return r, nil
}

// HTTPClient is the configuration the HTTP and WebSocket transports
// share, from the options and r.
func (r Remote) HTTPClient(o Options) httpconf.Client {
	return httpconf.Client{
		Header:       r.Header,
		Auth:         o.Auth,
		Origin:       o.Origin,
		CertHashes:   r.CertHashes,
		Insecure:     o.Insecure,
		KeyLogFile:   o.KeyLog,
		MaxFrameSize: o.MaxFrameSize,
		NoRedact:     o.NoRedact,
		Warn:         o.Warn,
	}
}

// warnInsecure prints the --insecure warning when the flag is set.
func warnInsecure(o Options) {
	if o.Insecure && o.Warn != nil {
		o.Warn(insecureWarning)
	}
}
