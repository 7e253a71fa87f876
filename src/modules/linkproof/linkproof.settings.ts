import { defineSettings } from '../../settings';
import { upstreamVariables } from '../../upstreams/upstreams.settings';

/** Link proof: the proof/identity provider upstream. */
export const linkProofSettings = defineSettings({
  name: 'linkproof',
  title: 'Link proof',
  variables: {
    ...upstreamVariables(
      'IDENTITY_PROVIDER',
      'API_KEY',
      'the proof/identity provider of [link proof](rewards-linkproof-admin.md#link-proof)',
    ),
  },
  map: (v) => ({
    upstreams: {
      /** The proof/identity provider of link proof. */
      identity: { url: v.IDENTITY_PROVIDER_URL, apiKey: v.IDENTITY_PROVIDER_API_KEY },
    },
  }),
});
