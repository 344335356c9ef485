// Sends through the unmodified @sentry/node SDK to the DSN given as the
// first argument: an exception with a breadcrumb, a user, release and
// environment; the same exception again; and a warning message. Prints
// "sent" after the SDK flushed (exit 1 when it could not).
'use strict';
const Sentry = require('@sentry/node');

async function main() {
  const dsn = process.argv[2];
  Sentry.init({
    dsn,
    release: 'shop@3.1.4',
    environment: 'e2e',
    tracesSampleRate: 0,
    sendClientReports: false,
  });
  Sentry.setUser({ id: 'customer-7', email: 'customer7@example.com' });
  Sentry.setTag('feature', 'checkout');
  Sentry.addBreadcrumb({ category: 'auth', message: 'signed in', level: 'info' });
  function loadCart(cart) {
    return cart.total.amount; // TypeError: cannot read 'amount' of undefined
  }
  for (let i = 0; i < 2; i++) {
    try {
      loadCart({});
    } catch (err) {
      Sentry.captureException(err);
    }
  }
  Sentry.captureMessage('Payment provider slow', 'warning');
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
