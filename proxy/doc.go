// Package proxy puts mcpscope between a host (Claude, Cursor, VS Code, the
// Inspector…) and a server. It has two connections and no engine in the
// path: a relay of each transport (proxy/stdio, proxy/httprelay,
// proxy/wsrelay, proxy/wtrelay) reads a message from one side and hands it
// to Session.Relay, which captures it, lets the steering (pause, edit,
// drop, inject) and the faults have their say, and carries it on to the
// other side through the relay's Carrier — unchanged, byte for byte,
// unless a viewer or a fault changed it.
//
// Every frame goes to the session's bounded Store (what live viewers
// read, proxy/live) and to its recording. What the proxy does to the
// traffic is itself a frame on the capture.Proxy channel, so the traffic
// pane, the recording and every export show it in order.
package proxy
