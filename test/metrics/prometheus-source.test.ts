// The adapter against a real Prometheus (Debian's 2.42), backfilled with promtool.
import { startPrometheus } from '../support/prometheus-server.ts';
import { sourceSuite } from '../support/source-suite.ts';

sourceSuite('Prometheus', { exactRate: true, storesNaN: true }, (series) => startPrometheus({ series }));
