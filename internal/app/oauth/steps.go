package oauth

import (
	"cmp"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/mcpscope/mcpscope/internal/app/checklist"
)

// Names of the flow's steps, in the order they happen.
const (
	StepChallenge    = "challenge"
	StepResourceMeta = "resource metadata"
	StepServerMeta   = "server metadata"
	StepRegistration = "registration"
	StepBrowser      = "browser"
	StepAuthorize    = "authorization"
	StepToken        = "token"
	StepRefresh      = "refresh"
)

// wellKnownPRM is where protected resource metadata lives at the root
// (RFC 9728 §3.1).
const wellKnownPRM = "/.well-known/oauth-protected-resource"

// stepOrder places each step on the checklist.
var stepOrder = []string{StepChallenge, StepResourceMeta, StepServerMeta, StepRegistration, StepBrowser, StepAuthorize, StepToken, StepRefresh}

// Steps returns the checklist of the flow so far, in the order steps
// happen, as the connection doctor renders it.
func (f *Flow) Steps() checklist.Report {
	f.mu.Lock()
	defer f.mu.Unlock()
	r := checklist.Report{Title: "authorization", Target: f.cfg.Resource}
	for _, name := range stepOrder {
		if s, ok := f.steps[name]; ok {
			r.Results = append(r.Results, s)
		}
	}
	return r
}

// step records how the step name went and tells OnStep.
func (f *Flow) step(name string, status checklist.Status, took time.Duration, detail string) {
	f.mu.Lock()
	if f.steps == nil {
		f.steps = map[string]checklist.Result{}
	}
	prev, seen := f.steps[name]
	if seen && prev.Status == checklist.Passed && status == checklist.Skipped {
		// A well-known URL that answered 404 after another answered:
		// the step still passed.
		f.mu.Unlock()
		return
	}
	res := checklist.Result{Step: name, Status: status, Took: took, Detail: detail}
	if status == checklist.Failed {
		res.Class = checklist.Connection
	}
	f.steps[name] = res
	running := f.running
	f.mu.Unlock()
	if running && f.cfg.OnStep != nil {
		f.cfg.OnStep(f.Steps(), false)
	}
	if status != checklist.Skipped {
		f.nudge()
	}
}

// fail marks the step under way when the flow stopped with err.
func (f *Flow) fail(name string, err error) {
	f.step(name, checklist.Failed, 0, err.Error())
}

// observe turns one of the flow's exchanges into its step: which one it
// is follows from the request (a well-known metadata path, a registration
// body, a grant type), what it found from the answer.
func (f *Flow) observe(req *http.Request, sent []byte, rsp *http.Response, got []byte, err error, took time.Duration) {
	name := classify(req, sent)
	if name == "" {
		return
	}
	switch {
	case err != nil:
		f.step(name, checklist.Skipped, took, fmt.Sprintf("%s %s: %v", req.Method, req.URL.Redacted(), err))
	case rsp.StatusCode/100 != 2:
		f.step(name, checklist.Skipped, took, fmt.Sprintf("%s %s: %s", req.Method, req.URL.Redacted(), rsp.Status))
	default:
		if refused := f.learn(name, req, got); refused != nil {
			f.step(name, checklist.Failed, took, refused.Error())
			return
		}
		detail := found(name, req, got)
		if name == StepRegistration && f.cfg.ClientMetadataURL != "" {
			detail = noCIMD + ": " + detail
		}
		f.step(name, checklist.Passed, took, detail)
	}
}

// noCIMD says why a flow given a Client ID Metadata Document registered
// dynamically all the same.
const noCIMD = "the authorization server does not support Client ID Metadata Documents, so --client-metadata-url is not used and mcpscope registers dynamically"

// classify names the step an exchange of the flow belongs to.
func classify(req *http.Request, sent []byte) string {
	p := req.URL.Path
	switch {
	case strings.Contains(p, wellKnownPRM):
		return StepResourceMeta
	case strings.Contains(p, "/.well-known/oauth-authorization-server"), strings.Contains(p, "/.well-known/openid-configuration"):
		return StepServerMeta
	case req.Method == http.MethodPost && strings.Contains(req.Header.Get("Content-Type"), "json"):
		return StepRegistration
	case req.Method == http.MethodPost:
		form, _ := url.ParseQuery(string(sent))
		switch form.Get("grant_type") {
		case "authorization_code", "client_credentials":
			return StepToken
		case "refresh_token":
			return StepRefresh
		}
	case req.Method == http.MethodGet:
		// A resource_metadata URL the challenge named, at any path.
		return StepResourceMeta
	}
	return ""
}

// found words what a step's answer says.
func found(name string, req *http.Request, got []byte) string {
	var doc map[string]any
	_ = json.Unmarshal(got, &doc)
	str := func(k string) string { s, _ := doc[k].(string); return s }
	list := func(k string) string {
		v, _ := doc[k].([]any)
		var out []string
		for _, x := range v {
			if s, ok := x.(string); ok {
				out = append(out, s)
			}
		}
		return strings.Join(out, " ")
	}
	switch name {
	case StepResourceMeta:
		return fmt.Sprintf("%s: resource %s, authorization servers %s", req.URL.Redacted(), str("resource"), list("authorization_servers"))
	case StepServerMeta:
		return fmt.Sprintf("%s: issuer %s", req.URL.Redacted(), str("issuer"))
	case StepRegistration:
		return fmt.Sprintf("dynamic registration at %s: client %s", req.URL.Redacted(), str("client_id"))
	case StepToken, StepRefresh:
		d := fmt.Sprintf("%s token", cmp.Or(str("token_type"), "bearer"))
		if v, ok := doc["expires_in"].(float64); ok {
			d += fmt.Sprintf(", expires in %s", time.Duration(v)*time.Second)
		}
		if s := str("scope"); s != "" {
			d += ", scope " + s
		}
		if str("refresh_token") != "" {
			d += ", with a refresh token"
		}
		return d
	}
	return ""
}
