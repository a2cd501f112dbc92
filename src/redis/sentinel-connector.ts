import { SentinelConnector, type SentinelConnectionOptions } from 'ioredis';

type ConnectArguments = Parameters<SentinelConnector['connect']>;

/**
 * ioredis's SentinelConnector, whose +switch-master subscriptions to the sentinels (failoverDetector) also end when
 * the connection's socket closes. ioredis ends them on disconnect() but not after quit() (redis/ioredis#1362), and
 * BullMQ closes its connections with quit(): a stopping Wrench would otherwise wait on them forever.
 */
export class ClosingSentinelConnector extends SentinelConnector {
  // ioredis hands a connector the connection's whole options (ConnectorConstructor takes unknown).
  constructor(options: unknown) {
    super(options as SentinelConnectionOptions);
  }

  override async connect(...args: ConnectArguments) {
    const stream = await super.connect(...args);
    stream.once('close', () => (this as unknown as { failoverDetector?: { cleanup(): void } | null }).failoverDetector?.cleanup());
    return stream;
  }
}
