/*
 * A JSON request to the page's own server. Why a module: the demo checkout
 * and the payment link page turn an answer into data, or into an Error
 * carrying the API's code, details and status, and a network failure into
 * NETWORK_ERROR, the same way, so their error boxes show both alike.
 */

/** `networkMessage`: the text of a NETWORK_ERROR, in the page's language. */
export function requestJson(method, path, body, headers, networkMessage) {
  const init = { method, headers: { accept: 'application/json', ...headers }, credentials: 'same-origin' };
  if (body !== undefined) {
    init.headers['content-type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  return fetch(path, init).then(
    (res) =>
      res.text().then((text) => {
        let data;
        try {
          data = text ? JSON.parse(text) : null;
        } catch {
          data = null;
        }
        if (res.ok) return data;
        const err = new Error((data && data.message) || 'HTTP ' + res.status);
        err.code = (data && data.code) || 'HTTP_' + res.status;
        err.details = (data && data.details) || null;
        err.status = res.status;
        throw err;
      }),
    () => {
      const err = new Error(networkMessage);
      err.code = 'NETWORK_ERROR';
      throw err;
    },
  );
}
