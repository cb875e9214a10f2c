package client

// SetLogLevel sets the session's log level (debug … emergency, "" for
// none). In 2026-07-28, which has no logging/setLevel, every request that
// follows carries it in _meta (io.modelcontextprotocol/logLevel), unless
// the call's own WithMeta names another; in the legacy era the level is
// only remembered: logging/setLevel is the request that sets it there.
func (s *Session) SetLogLevel(level string) {
	s.mu.Lock()
	s.logLevel = level
	s.mu.Unlock()
}

// LogLevel is the level SetLogLevel set, "" when none.
func (s *Session) LogLevel() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.logLevel
}
