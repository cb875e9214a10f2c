package client

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/mcpscope/mcpscope/proto/mcp"
)

// Connect starts the transport and negotiates the era and version: with
// Options.ProtocolVersion empty it probes server/discover and falls back to
// initialize on any error or unrecognised answer, but not on a recognised
// 2026-07-28 one (-32022 naming the versions to use, -32020, -32021) nor
// on an authorization failure (see discover). The transport lives until
// Close; ctx bounds the handshake (and is passed to Transport.Start).
func (s *Session) Connect(ctx context.Context) error {
	s.mu.Lock()
	switch {
	case s.closed:
		s.mu.Unlock()
		return ErrClosed
	case s.started:
		s.mu.Unlock()
		return errors.New("session is already connected")
	}
	s.started = true
	s.mu.Unlock()

	sctx, cancel := StartContext(ctx, s.opts.Timeout, s.opts.HardTimeout)
	err := s.t.Start(sctx, s.deliver)
	cancel()
	if err != nil {
		connErr := startFailure(sctx, err)
		s.mu.Lock()
		s.failLocked(connErr)
		s.mu.Unlock()
		return connErr
	}
	go s.watchTransport()
	if err := s.handshake(ctx); err != nil {
		_ = s.Close()
		return err
	}
	return nil
}

// handshake picks and runs the handshake Options.ProtocolVersion asks for.
func (s *Session) handshake(ctx context.Context) error {
	v := s.opts.ProtocolVersion
	if s.traits.HandshakeFree {
		s.mu.Lock()
		s.era = EraLegacy
		s.mu.Unlock()
		return nil
	}
	if s.traits.InitializeOnly {
		if v == "" {
			v = mcp.LatestLegacy
		}
		return s.initialize(ctx, v)
	}
	switch {
	case v == "":
		probe, err := s.discover(ctx, false)
		if err != nil || probe.modern {
			return err
		}
		offer := cmp.Or(probe.legacy, mcp.LatestLegacy)
		err = s.initialize(ctx, offer)
		if probe.late != nil {
			return s.settleProbe(probe.late, err)
		}
		return err
	case mcp.IsModernVersion(v):
		_, err := s.discover(ctx, true)
		return err
	default:
		return s.initialize(ctx, v)
	}
}

// clientCapabilities returns what the client declares for version v: with
// roots, roots; with a handler, sampling, elicitation and the MCP Apps
// extension, whose UI resources mcpscope reads and shows (it runs none).
func (s *Session) clientCapabilities(v string) mcp.ClientCapabilities {
	if s.opts.Capabilities != nil {
		return *s.opts.Capabilities
	}
	var caps mcp.ClientCapabilities
	if s.opts.Roots != nil {
		caps.Roots = &mcp.RootsCapability{ListChanged: true}
	}
	if s.opts.Handler != nil {
		caps.Sampling = &mcp.SamplingCapability{}
		caps.Elicitation = &mcp.ElicitationCapability{}
		if v >= mcp.ProtocolVersion20251125 {
			caps.Elicitation.Form = mcp.EmptyObject
			caps.Elicitation.URL = mcp.EmptyObject
		}
		caps.Extensions = map[string]json.RawMessage{mcp.ExtensionApps: mcp.AppClientCapability}
	}
	if mcp.IsModernVersion(v) {
		// A server creates a task only for a request that declares the
		// Tasks extension; mcpscope follows every task to its end
		// (client/tasks).
		if caps.Extensions == nil {
			caps.Extensions = map[string]json.RawMessage{}
		}
		caps.Extensions[mcp.ExtensionTasks] = mcp.EmptyObject
	}
	return caps
}

// modernMetaLocked returns the _meta members of every modern-era request.
func (s *Session) modernMetaLocked() []member {
	meta := []member{
		{Key: mcp.MetaProtocolVersion, Value: mustJSON(s.version)},
		{Key: mcp.MetaClientInfo, Value: mustJSON(s.opts.ClientInfo)},
		{Key: mcp.MetaClientCapabilities, Value: mustJSON(s.clientCaps)},
	}
	if s.logLevel != "" {
		meta = append(meta, member{Key: mcp.MetaLogLevel, Value: mustJSON(s.logLevel)})
	}
	return meta
}

// fatal reports whether a handshake error ends the connection attempt
// instead of leading to the fallback.
func fatal(ctx context.Context, err error) bool {
	var ce *ConnectionError
	return errors.As(err, &ce) || errors.Is(err, ErrClosed) || ctx.Err() != nil
}

// initialize runs the legacy handshake offering version v.
func (s *Session) initialize(ctx context.Context, v string) error {
	caps := s.clientCapabilities(v)
	params := mcp.InitializeParams{ProtocolVersion: v, Capabilities: caps, ClientInfo: s.opts.ClientInfo}
	cfg := s.callConfig(nil)
	cfg.handshake = true
	cfg.offered = s.traits.Encodings
	sent := s.initializeParams(params)
	s.mu.Lock()
	s.initParams = sent // for a session started again (session_restart.go)
	s.mu.Unlock()
	raw, err := s.roundTrip(ctx, mcp.MethodInitialize, sent, cfg, 1)
	if err != nil {
		return err
	}
	var res struct {
		ProtocolVersion string             `json:"protocolVersion"`
		Capabilities    json.RawMessage    `json:"capabilities"`
		ServerInfo      mcp.Implementation `json:"serverInfo"`
		Instructions    string             `json:"instructions"`
	}
	if err := json.Unmarshal(raw, &res); err != nil {
		return s.refuse(malformedResult(mcp.MethodInitialize, raw, err))
	}
	if res.ProtocolVersion == "" {
		return s.refuse("the initialize result names no protocolVersion")
	}
	if !mcp.KnownVersion(res.ProtocolVersion) {
		return s.refuse(fmt.Sprintf("the server chose protocol version %q, which mcpscope does not speak", res.ProtocolVersion))
	}
	s.mu.Lock()
	s.era, s.version = EraLegacy, res.ProtocolVersion
	if mcp.IsModernVersion(res.ProtocolVersion) {
		s.era = EraModern
	}
	s.serverInfo, s.serverCaps, s.instructions = res.ServerInfo, res.Capabilities, res.Instructions
	s.clientCaps = caps
	s.mu.Unlock()
	return s.Notify(ctx, mcp.MethodNotifyInitialized, nil)
}

// refuse ends the session after a handshake the client cannot accept.
func (s *Session) refuse(msg string) error {
	_ = s.Close()
	return &ProtocolError{Msg: msg}
}
