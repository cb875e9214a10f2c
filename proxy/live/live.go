// Package live publishes a proxied session to local viewers (mcpscope
// attach) on a socket only the user can open, and is the viewers' side of
// it.
//
// A proxy's Hub listens on a Unix socket (mode 0600) in a private runtime
// directory (Dir), beside a small JSON sidecar naming the session (Entry);
// List reads the sidecars. A viewer that connects is sent, one JSON line
// each, the lines of a recording (package recordings): the session's
// header, every frame the session's store holds, then every new frame as
// it is captured, and an end line when the session ends. A viewer reads
// them with recordings.NewReader and a recordings.Replayer into a store of
// its own, so attach, replay and the recording share one format.
//
// Between those lines the hub writes lines of its own, which a recording
// never holds: each is a JSON object whose first member is "k":"live"
// (hubLine). It answers a command ("ref", with "id" or "err"), tells the
// steering in force ("state": the pause filters, the fault rules and the
// paused messages), or says why the hub ends the viewer's stream ("bye").
//
// A viewer steers the session with commands, one JSON line each (command),
// at most MaxCommandLine bytes:
//
//	{"ref":1,"op":"pause","filters":[{"method":"tools/call","dir":"host"}]}
//	{"ref":2,"op":"decide","held":3}                      forward paused message 3 unchanged
//	{"ref":3,"op":"decide","held":3,"body":"BASE64"}      forward it edited
//	{"ref":4,"op":"decide","held":3,"drop":true}          drop it
//	{"ref":5,"op":"inject","body":"BASE64"}               answered with the request's "id"
//	{"ref":6,"op":"faults","faults":[…]}                  the fault rules (proxy.Fault as JSON)
//
// Filters are proxy.Filter as JSON. Every command is answered by a hub
// line with its ref ({"k":"live","ref":5,"id":"mcpscope-…-1"}, or "err"
// saying why it failed). A line that is not a command is answered with a
// bye and the viewer is dropped. Viewers are shown credentials masked as
// the recording masks them (and proxy.SecretHeaders), paused messages included;
// an edited message that keeps a masked value carries the original on.
//
// A slow viewer never slows the proxy: the hub reads the session's bounded
// store at the viewer's own pace, and a viewer that fell behind the store
// skips ahead and is told how many frames it missed (a proxy.Mark with
// What proxy.WhatMissed, in its own stream only). When the last viewer
// leaves, the paused messages go on and the pause filters are cleared.
package live
