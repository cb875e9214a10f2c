package oauth

import (
	"errors"
	"fmt"
	"strings"

	"golang.org/x/oauth2"
)

// errUnsendable says a token holds characters no header can carry.
var errUnsendable = errors.New("it holds control characters, which no Authorization header can carry")

// sendable checks that tok can go in an Authorization header: neither its
// type nor its access token holds a control character (CR, LF, NUL, DEL…),
// which would fail every request or split the header.
func sendable(tok *oauth2.Token) error {
	if strings.ContainsFunc(tok.Type()+tok.AccessToken, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
		return errUnsendable
	}
	return nil
}

// logoutHint is the command that forgets what is stored for the flow's
// resource, for a run to authorize from scratch.
func (f *Flow) logoutHint() string {
	return fmt.Sprintf("mcpscope auth logout %s forgets it", f.cfg.Resource)
}
