package cli

import (
	"net/http"
	"strings"

	"github.com/mcpscope/mcpscope/transports/httpconf"
)

// remote is what every network transport takes from the flags alike: the
// extra headers and the pinned certificate hashes.
type remote struct {
	header     http.Header
	certHashes []string
}

// remoteOf parses the flags every network transport shares. flowOnly
// names the transport when the MCP-Flow-only flags (--encoding,
// --stream-out) must be refused; "" accepts them.
func remoteOf(o TransportOptions, flowOnly string) (remote, error) {
	if flowOnly != "" {
		for _, f := range []struct {
			name string
			set  bool
		}{
			{"--encoding", o.Encoding != ""},
			{"--stream-out", o.StreamOut != ""},
		} {
			if f.set {
				return remote{}, usagef("%s applies to MCP-Flow, not to the %s transport", f.name, flowOnly)
			}
		}
	}
	hdr, err := parseHeaders(o.Headers)
	if err != nil {
		return remote{}, err
	}
	r := remote{header: hdr}
	if o.CertHash != "" {
		r.certHashes = strings.Split(o.CertHash, ",")
	}
	return r, nil
}

// httpClient is the configuration the HTTP and WebSocket transports share,
// from the flags and r.
func (r remote) httpClient(o TransportOptions) httpconf.Client {
	return httpconf.Client{
		Header:       r.header,
		Auth:         o.Auth,
		Origin:       o.Origin,
		CertHashes:   r.certHashes,
		Insecure:     o.Insecure,
		KeyLogFile:   o.KeyLog,
		MaxFrameSize: o.MaxFrameSize,
		NoRedact:     o.NoRedact,
		Warn:         o.Warn,
	}
}

// warnInsecure prints the --insecure warning when the flag is set.
func warnInsecure(o TransportOptions) {
	if o.Insecure && o.Warn != nil {
		o.Warn(insecureWarning)
	}
}
