// Preloaded with `node -r ./loopback.cjs`: a server that listens without
// naming a host (express's app.listen(PORT)) binds 127.0.0.1 instead of every
// interface, so the third-party servers the tests start stay on loopback.
'use strict';
const net = require('node:net');

const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
  const [first, second] = args;
  const isPort = (v) => typeof v === 'number' || (typeof v === 'string' && /^\d+$/.test(v));
  if (first === undefined || typeof first === 'function') {
    args.unshift(0, '127.0.0.1');
  } else if (isPort(first) && typeof second !== 'string') {
    args.splice(1, 0, '127.0.0.1');
  } else if (first !== null && typeof first === 'object' && first.host === undefined &&
             first.path === undefined && first.fd === undefined && first.handle === undefined && !first._handle) {
    args[0] = { ...first, host: '127.0.0.1' };
  }
  return listen.apply(this, args);
};
