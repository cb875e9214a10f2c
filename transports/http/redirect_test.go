package mcphttp

import (
	"bytes"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/mcpscope/mcpscope/capture"
	"github.com/mcpscope/mcpscope/proto/jsonrpc"
	"github.com/mcpscope/mcpscope/proto/mcp"
)

// A POST redirected with 301, 302 or 303 would reach the new URL as a GET
// without its body: the request fails with the status and the Location,
// and nothing is sent to the new URL.
func TestRedirectedPostFailsTheRequest(t *testing.T) {
	for _, status := range []int{http.StatusMovedPermanently, http.StatusFound, http.StatusSeeOther} {
		t.Run(strconv.Itoa(status), func(t *testing.T) {
			f := newFake(t)
			f.on(mcp.MethodPing, func(w http.ResponseWriter, r *http.Request, _ *jsonrpc.Message) {
				http.Redirect(w, r, "/moved", status)
			})
			r := newRig(t, f.URL(), nil)
			r.send(t, request(t, 1, mcp.MethodPing, nil))
			m := r.in.next(t)
			xe := exchangeError(t, m)
			if m.ID.Key() != jsonrpc.IntID(1).Key() || xe.Status != status {
				t.Errorf("id %s, status %d, want %d", m.ID, xe.Status, status)
			}
			for _, want := range []string{
				"redirected the POST to " + f.srv.URL + "/moved with " + strconv.Itoa(status),
				"would lose its body", "use that URL as the target",
			} {
				if !strings.Contains(xe.Error(), want) {
					t.Errorf("error %q lacks %q", xe, want)
				}
			}
			if got := f.requests(func(s seen) bool { return s.Path == "/moved" }); len(got) > 0 {
				t.Errorf("the redirect was followed: %s %s", got[0].Method, got[0].Path)
			}
			r.frame(t, "the "+strconv.Itoa(status), func(fr *capture.Frame) bool {
				return fr.Dir == capture.In && fr.Chan.Kind == capture.HTTP &&
					strings.Contains(string(fr.Raw), strconv.Itoa(status)+" "+http.StatusText(status))
			})
		})
	}
}

// A POST redirected with 307 or 308 is sent again, the same method and
// the same body, to the new URL, and its answer delivered.
func TestRedirectedPostKeepsItsBody(t *testing.T) {
	for _, status := range []int{http.StatusTemporaryRedirect, http.StatusPermanentRedirect} {
		t.Run(strconv.Itoa(status), func(t *testing.T) {
			f := newFake(t)
			f.on(mcp.MethodToolsCall, func(w http.ResponseWriter, r *http.Request, m *jsonrpc.Message) {
				if r.URL.Path == "/mcp" {
					http.Redirect(w, r, "/moved", status)
					return
				}
				writeJSON(w, http.StatusOK, resultOf(m, `{"content":[]}`))
			})
			r := newRig(t, f.URL(), nil)
			sent := request(t, 4, mcp.MethodToolsCall, map[string]any{"name": "echo", "arguments": map[string]any{"text": "hi"}})
			r.send(t, sent)
			if m := r.in.next(t); !m.IsResponse() || m.ID.Key() != jsonrpc.IntID(4).Key() {
				t.Fatalf("delivered %s", m.Raw)
			}
			got := f.await(2, "the POST and its redirect", method(http.MethodPost))
			want, _ := sent.EncodeJSON()
			if got[1].Path != "/moved" || !bytes.Equal(got[1].Body, want) || !bytes.Equal(got[0].Body, want) {
				t.Errorf("redirected %s %s with %q, want %q", got[1].Method, got[1].Path, got[1].Body, want)
			}
			if n := len(f.requests(method(http.MethodGet))); n > 0 {
				t.Errorf("%d GETs", n)
			}
		})
	}
}

// The DELETE that ends a session is not turned into a GET by a 302: it
// fails, said in the capture, and nothing goes to the new URL.
func TestRedirectedDeleteIsNotFollowed(t *testing.T) {
	f := newFake(t)
	f.on(http.MethodDelete, func(w http.ResponseWriter, r *http.Request, _ *jsonrpc.Message) {
		http.Redirect(w, r, "/gone", http.StatusFound)
	})
	r := newRig(t, f.URL(), nil)
	r.handshake(t)
	_ = r.tr.Close()
	f.await(1, "the DELETE", method(http.MethodDelete))
	if got := f.requests(func(s seen) bool { return s.Path == "/gone" }); len(got) > 0 {
		t.Errorf("the redirect was followed: %s %s", got[0].Method, got[0].Path)
	}
	r.frame(t, "the failed DELETE", func(fr *capture.Frame) bool {
		return strings.Contains(string(fr.Raw), "redirected the DELETE to "+f.srv.URL+"/gone with 302; a redirected DELETE would become a GET")
	})
}
