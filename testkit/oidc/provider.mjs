// A real OpenID Connect provider for Leadgen's sign-in tests: panva/oidc-provider (the
// certified implementation), configured strictly: PKCE required (S256), single-use codes,
// exact redirect URIs. Login and consent complete on their own for the account named by
// `login_hint` (default "alice"), so tests need no HTML forms.
//
// Sign-in with `feature=sheets` (re-authentication for the Google Sheets export) asks for
// Google's Sheets scopes as well: they are known here, granted on consent like the
// others, reported in the token response's `scope`, and that consent brings a refresh
// token, as Google's offline access does (the API keeps it only when `scope` includes
// the spreadsheets scope). Plain sign-in gets no refresh token, as before.
//
// Also serves, under /mixup, a discovery document for another issuer whose endpoints are
// this provider's: a relying party configured with that issuer receives ID tokens whose
// `iss` is not the one it trusts, and must reject them.
//
// Usage: REDIRECT_URI=http://127.0.0.1:8080/api/auth/callback node provider.mjs
// Prints "READY <issuer>" once listening on a free loopback port.
import http from 'node:http';
import Provider from 'oidc-provider';

const redirectUri = process.env.REDIRECT_URI;
if (!redirectUri) {
  console.error('REDIRECT_URI is required');
  process.exit(2);
}
export const CLIENT_ID = process.env.CLIENT_ID ?? 'leadgen-test';
export const CLIENT_SECRET = process.env.CLIENT_SECRET ?? 'leadgen-test-secret';
/** Google's scopes for the Sheets export (api/src/auth/oidc.rs `SHEETS_SCOPES`). */
export const SHEETS_SCOPES = ['https://www.googleapis.com/auth/spreadsheets', 'https://www.googleapis.com/auth/drive.file'];

const server = http.createServer();
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const issuer = `http://127.0.0.1:${server.address().port}`;

const provider = new Provider(issuer, {
  clients: [
    {
      client_id: CLIENT_ID,
      client_secret: CLIENT_SECRET,
      redirect_uris: [redirectUri],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_basic',
    },
  ],
  pkce: { required: () => true },
  claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'picture'] },
  scopes: ['openid', 'email', 'profile', 'offline_access', ...SHEETS_SCOPES],
  // Google issues a refresh token for offline access (`access_type=offline`, which this
  // provider does not know): here, a consent to the Sheets scopes, or `offline_access`,
  // brings one when the client may use the refresh_token grant.
  async issueRefreshToken(ctx, client, code) {
    if (!client.grantTypeAllowed('refresh_token')) return false;
    return code.scopes.has('offline_access') || SHEETS_SCOPES.some((scope) => code.scopes.has(scope));
  },
  async findAccount(ctx, id) {
    return {
      accountId: id,
      async claims() {
        return {
          sub: id,
          email: `${id}@example.com`,
          email_verified: true,
          name: `${id[0].toUpperCase()}${id.slice(1)} Example`,
          picture: `https://pictures.example/${id}.png`,
        };
      },
    };
  },
  features: { devInteractions: { enabled: false } },
  interactions: { url: (ctx, interaction) => `/interaction/${interaction.uid}` },
  cookies: { keys: ['leadgen-test-cookie-key'] },
  ttl: { AuthorizationCode: 60, Session: 600, Interaction: 600, Grant: 600, IdToken: 600, AccessToken: 600, RefreshToken: 3600 },
});
// The provider sits behind no proxy and speaks plain HTTP on loopback.
provider.proxy = false;

async function finishInteraction(req, res) {
  const details = await provider.interactionDetails(req, res);
  const accountId = details.params.login_hint || details.session?.accountId || 'alice';
  let result;
  if (details.prompt.name === 'login') {
    result = { login: { accountId } };
  } else {
    const grant = details.grantId
      ? await provider.Grant.find(details.grantId)
      : new provider.Grant({ accountId: details.session.accountId, clientId: details.params.client_id });
    grant.addOIDCScope(details.params.scope);
    result = { consent: { grantId: await grant.save() } };
  }
  await provider.interactionFinished(req, res, result, { mergeWithLastSubmission: false });
}

function mixupDiscovery(res) {
  const body = {
    issuer: `${issuer}/mixup`,
    authorization_endpoint: `${issuer}/auth`,
    token_endpoint: `${issuer}/token`,
    jwks_uri: `${issuer}/jwks`,
    response_types_supported: ['code'],
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: ['RS256'],
    code_challenge_methods_supported: ['S256'],
  };
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

const callback = provider.callback();
server.on('request', async (req, res) => {
  try {
    if (req.url.startsWith('/interaction/')) return await finishInteraction(req, res);
    if (req.url === '/mixup/.well-known/openid-configuration') return mixupDiscovery(res);
    return callback(req, res);
  } catch (err) {
    console.error(err);
    res.writeHead(500);
    res.end(String(err));
  }
});

process.stdout.write(`READY ${issuer}\n`);
