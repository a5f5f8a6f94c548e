// The same suite against a real VictoriaMetrics, to keep the PromQL portable.
import { startVictoriaMetrics } from '../support/victoria-metrics-server.ts';
import { sourceSuite } from '../support/source-suite.ts';

sourceSuite('VictoriaMetrics', { exactRate: false, storesNaN: false }, (series) => startVictoriaMetrics(series));
