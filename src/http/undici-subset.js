'use strict';
// The parts of undici the extension uses, without the rest of its index (fetch, WebSocket, caches, mocks), which would
// more than double what the extension host loads. The build maps `undici` to this file (see scripts/build.mjs).
const Dispatcher = require('undici/lib/dispatcher/dispatcher');
// undici's index adds its request API to every dispatcher this way; ProxyAgent's tunnel needs `connect` from it too.
Object.assign(Dispatcher.prototype, require('undici/lib/api'));

/** undici's top-level `request(url, { dispatcher, ... })`, for the absolute URLs and explicit dispatchers the client uses. */
function request(url, options) {
  const { dispatcher, ...rest } = options;
  return dispatcher.request({
    ...rest,
    origin: url.origin,
    path: `${url.pathname}${url.search}`,
    method: rest.method ?? 'GET',
  });
}

module.exports = {
  Agent: require('undici/lib/dispatcher/agent'),
  ProxyAgent: require('undici/lib/dispatcher/proxy-agent'),
  request,
};
