import { defineModule } from '../../kernel';
import { TradesResolver } from './trades.resolver';

/** The live trades subscription (the ingestion publishes the topic). */
export const tradesModule = defineModule({
  name: 'trades',
  resolvers: [TradesResolver],
});
