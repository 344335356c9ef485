// Sends through the unmodified @sentry/node SDK to the DSN given as the
// first argument one exception carrying a password (the second argument)
// in every place an SDK puts data: extra, a context, a tag, a breadcrumb's
// message and data, the user, the exception message, and the request
// (headers, cookies, query string); plus a harmless marker (the third
// argument) in extra, so the test can prove it reads the stored text.
// Prints "sent" after the SDK flushed (exit 1 when it could not).
'use strict';
const Sentry = require('@sentry/node');

async function main() {
  const [dsn, secret, marker] = process.argv.slice(2);
  Sentry.init({
    dsn,
    release: 'shop@3.1.5',
    environment: 'e2e',
    tracesSampleRate: 0,
    sendClientReports: false,
    sendDefaultPii: true,
  });
  Sentry.setUser({ id: 'customer-8', username: 'ann', password: secret, ip_address: '203.0.113.77' });
  Sentry.setExtra('password', secret);
  Sentry.setExtra('visible', marker);
  Sentry.setContext('login', { user: 'ann', passwd: secret });
  Sentry.setTag('api_key', secret);
  Sentry.addBreadcrumb({ category: 'auth', message: `POST /login password=${secret}`, level: 'info' });
  Sentry.addBreadcrumb({ category: 'http', type: 'http', data: { url: `https://shop.example/cb?token=${secret}`, method: 'GET' } });
  Sentry.withScope((scope) => {
    scope.addEventProcessor((event) => {
      event.request = {
        url: `https://shop.example/login?password=${secret}`,
        method: 'POST',
        headers: { Authorization: `Bearer ${secret}`, Cookie: `session=${secret}`, 'User-Agent': 'e2e' },
        cookies: { session: secret },
        query_string: `password=${secret}`,
        data: { password: secret },
      };
      return event;
    });
    try {
      throw new Error(`login failed for password=${secret}`);
    } catch (err) {
      Sentry.captureException(err);
    }
  });
  const ok = await Sentry.flush(10000);
  if (!ok) {
    console.error('flush timed out');
    process.exit(1);
  }
  console.log('sent');
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
