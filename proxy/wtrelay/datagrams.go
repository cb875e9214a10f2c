package wtrelay

import (
	"github.com/quic-go/webtransport-go"

	"github.com/mcpscope/mcpscope/capture"
	wtransport "github.com/mcpscope/mcpscope/transports/webtransport"
)

// datagrams relays the datagrams of from (going dir) to to, each
// captured, until from ends.
func (p *pair) datagrams(dir capture.Dir, from, to *webtransport.Session) {
	ctx := from.Context()
	for {
		b, err := from.ReceiveDatagram(ctx)
		if err != nil {
			return
		}
		f := wtransport.DatagramFrame(b, p.control.encoding())
		f.Dir = dir
		p.capture(f)
		if err := to.SendDatagram(b); err != nil {
			p.note(dir, "a datagram could not be passed on: "+err.Error())
		}
	}
}
