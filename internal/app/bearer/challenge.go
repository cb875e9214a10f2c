package bearer

import (
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/oauthex"
)

// Challenges reads the WWW-Authenticate challenges of rsp.
func Challenges(rsp *http.Response) ([]oauthex.Challenge, error) {
	return oauthex.ParseWWWAuthenticate(rsp.Header.Values("WWW-Authenticate"))
}
