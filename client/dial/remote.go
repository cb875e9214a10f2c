package dial

import (
	"net/http"
	"strings"
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

// warnInsecure prints the --insecure warning when the flag is set.
func warnInsecure(o Options) {
	if o.Insecure && o.Warn != nil {
		o.Warn(insecureWarning)
	}
}
