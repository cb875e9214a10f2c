package oauth

import (
	"context"
	"errors"
	"fmt"
	"net/netip"
	"net/url"
	"os"
	"os/exec"
	"runtime"
	"strings"

	"github.com/mcpscope/mcpscope/internal/app/termtext"
)

// ErrNoBrowser says no browser was opened: the URL is for the user to open.
var ErrNoBrowser = errors.New("no browser to open (headless): open the URL yourself")

// OpenBrowser opens u in the user's browser: with $BROWSER when it is set
// (commands separated by ':', each tried in turn; "%s" stands for the URL,
// which otherwise goes last), else with the platform's opener (xdg-open,
// open, rundll32). The browser runs on its own; OpenBrowser does not wait
// for it. The URL is one argument, never read by a shell.
func OpenBrowser(ctx context.Context, u string) error {
	if env := os.Getenv("BROWSER"); env != "" {
		var errs []error
		for _, c := range strings.Split(env, string(os.PathListSeparator)) {
			if err := start(command(c, u)); err != nil {
				errs = append(errs, err)
				continue
			}
			return nil
		}
		return fmt.Errorf("$BROWSER: %w", errors.Join(errs...))
	}
	var argv []string
	switch runtime.GOOS {
	case "darwin":
		argv = []string{"open", u}
	case "windows":
		argv = []string{"rundll32", "url.dll,FileProtocolHandler", u}
	default:
		argv = []string{"xdg-open", u}
	}
	return start(argv)
}

// command splits one $BROWSER entry into its words, the URL in place of
// "%s" or last.
func command(entry, u string) []string {
	words := strings.Fields(entry)
	placed := false
	for i, w := range words {
		if strings.Contains(w, "%s") {
			words[i] = strings.ReplaceAll(w, "%s", u)
			placed = true
		}
	}
	if !placed {
		words = append(words, u)
	}
	return words
}

// start runs argv without waiting for it to end; it is reaped when it
// does.
func start(argv []string) error {
	if len(argv) == 0 || argv[0] == "" {
		return errors.New("an empty command")
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	if err := cmd.Start(); err != nil {
		return err
	}
	go cmd.Wait()
	return nil
}

// BrowsableURL checks that u may be opened in a browser, or printed as a
// link for the user to open: an https URL, or an http one whose host is a
// loopback address (127.0.0.1, ::1, localhost). An authorization endpoint
// the metadata names with any other scheme (file:, ssh:, vscode:, a
// custom handler) is refused with the reason.
func BrowsableURL(u string) error {
	p, err := url.Parse(u)
	if err != nil {
		return fmt.Errorf("the authorization URL is not a URL: %w", err)
	}
	switch strings.ToLower(p.Scheme) {
	case "https":
		if p.Hostname() != "" {
			return nil
		}
	case "http":
		if isLoopbackHost(p.Hostname()) {
			return nil
		}
		return fmt.Errorf("the authorization endpoint %s is plain http on a host that is not loopback: only https (or http on 127.0.0.1, ::1, localhost) is opened", termtext.LineMax(p.Redacted(), maxShownURL))
	}
	return fmt.Errorf("the authorization endpoint %s is not an https URL: only https (or http on 127.0.0.1, ::1, localhost) is opened in a browser or shown as a link", termtext.LineMax(p.Redacted(), maxShownURL))
}

// maxShownURL caps a URL the server named when an error quotes it.
const maxShownURL = 200

// isLoopbackHost reports whether host names this machine: localhost or a
// loopback address.
func isLoopbackHost(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.IsLoopback()
}
