// The entry of the sourcemaps e2e app: the unmodified @sentry/node (left
// out of the bundle, found through NODE_PATH) reports the TypeError that
// computeTotal throws to the DSN given as the first argument. Prints "sent"
// after the SDK flushed (exit 1 when it could not).
import * as Sentry from '@sentry/node';
import { computeTotal } from './cart.js';

async function main() {
  Sentry.init({
    dsn: process.argv[2],
    tracesSampleRate: 0,
    sendClientReports: false,
  });
  try {
    computeTotal([{ price: 12, quantity: 2 }], { currency: 'EUR' });
  } catch (err) {
    Sentry.captureException(err);
  }
  if (!(await Sentry.flush(10000))) {
    console.error('flush timed out');
    process.exit(1);
  }
  console.log('sent');
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
