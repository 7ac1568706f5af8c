import { context, metrics, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import {
  AggregationTemporality,
  type DataPoint,
  type Histogram,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
} from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';

/**
 * The OpenTelemetry SDK as an application registers it, with in-memory exporters: call once per
 * test file (registers in `beforeAll`, unregisters in `afterAll`).
 */
export function installOtelSdk() {
  const spans = new InMemorySpanExporter();
  const metricExporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  const reader = new PeriodicExportingMetricReader({ exporter: metricExporter, exportIntervalMillis: 3_600_000 });
  const contextManager = new AsyncLocalStorageContextManager().enable();

  beforeAll(() => {
    context.setGlobalContextManager(contextManager);
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] }));
    metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] }));
  });

  afterAll(() => {
    trace.disable();
    metrics.disable();
    propagation.disable();
    context.disable();
  });

  /** One histogram's unit and data points, as of now (cumulative). */
  async function histogram(name: string): Promise<{ unit?: string; points: Array<DataPoint<Histogram>> }> {
    await reader.forceFlush();
    const [latest] = metricExporter.getMetrics().slice(-1);
    const metric = latest?.scopeMetrics.flatMap((s) => s.metrics).find((m) => m.descriptor.name === name);
    return { unit: metric?.descriptor.unit, points: (metric?.dataPoints ?? []) as Array<DataPoint<Histogram>> };
  }

  return { spans, reader, metricExporter, histogram };
}
