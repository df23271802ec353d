// A small stand-in for the Leadgen API, for front-end development and screenshots
// while the Rust API is being built. Not used by the tests or the build.
//
//   node scripts/mock-api.mjs [port]            (default 8090)
//   LEADGEN_API_URL=http://127.0.0.1:8090 npm run dev
//
// MOCK_STATE: "fresh" (first login, needs onboarding), "returning" (needs onboarding,
// not first login) or "ready" (default: key saved, onboarding done).
import { createServer } from 'node:http';

const port = Number(process.argv[2] ?? 8090);
const TOKEN = 'mock.header.signature';
const state = {
  mode: process.env.MOCK_STATE ?? 'ready',
  key: process.env.MOCK_STATE === 'ready' || !process.env.MOCK_STATE ? 'AIzaSyD-mockmockmockmockmockmock12345' : null,
  valid: null,
  usage: Number(process.env.MOCK_USAGE ?? 1240),
};

const user = () => ({
  id: 'u1',
  name: 'Jordan Rivera',
  email: 'jordan@brightside.agency',
  picture: null,
  needsOnboarding: state.mode !== 'ready',
  isFirstLogin: state.mode === 'fresh',
});

const send = (res, status, body) => {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(body === undefined ? '' : JSON.stringify(body));
};
const authed = (req) => req.headers.authorization === `Bearer ${TOKEN}`;
const readJson = (req) =>
  new Promise((resolve) => {
    let data = '';
    req.on('data', (chunk) => (data += chunk));
    req.on('end', () => {
      try {
        resolve(JSON.parse(data || '{}'));
      } catch {
        resolve({});
      }
    });
  });

const STREETS = ['Main St', 'Oak Ave', 'Congress Ave', 'Lamar Blvd', 'S 1st St', 'E 6th St'];
const NAMES = ['Bella Napoli', 'The Copper Kettle', 'Sunrise Kitchen', 'Harbor Grill', 'Green Fork', 'Casa Lupita', 'Blue Door Bistro', 'Maple & Rye', 'Saffron House', 'Little Tokyo', 'Smoke & Barrel BBQ', 'Olive Tree', 'Corner Deli', 'Urban Plate', 'Golden Dragon'];

function lead(i, location) {
  return {
    name: `${NAMES[i % NAMES.length]}${i >= NAMES.length ? ` ${Math.floor(i / NAMES.length) + 1}` : ''}`,
    address: `${100 + i * 7} ${STREETS[i % STREETS.length]}, ${location}`,
    phone: i % 4 === 3 ? '' : `(512) 555-${String(1000 + i * 13).slice(-4)}`,
    website: i % 3 === 2 ? '' : `https://www.${NAMES[i % NAMES.length].toLowerCase().replace(/[^a-z]+/g, '')}.com`,
    placeId: `place-${i}`,
    rating: Math.round((3.6 + ((i * 37) % 14) / 10) * 10) / 10,
    reviewCount: 20 + ((i * 53) % 900),
  };
}

createServer(async (req, res) => {
  const url = new URL(req.url, `http://${req.headers.host}`);
  const path = url.pathname;
  if (path === '/api/health') return send(res, 200, { status: 'ok' });
  if (path === '/api/auth/config') return send(res, 200, { localMode: true, issuer: null });
  if (path === '/api/auth/google') {
    res.writeHead(302, { Location: `/auth/success?token=${TOKEN}` });
    return res.end();
  }
  if (!authed(req)) return send(res, 401, { error: 'unauthorized', message: 'Authentication required. Please log in again.' });

  if (path === '/api/auth/me') return send(res, 200, user());
  if (path === '/api/auth/refresh') return send(res, 200, { token: TOKEN, user: user() });
  if (path === '/api/auth/logout') return send(res, 204);
  if (path === '/api/user/complete-onboarding') {
    state.mode = 'ready';
    return send(res, 200, { success: true, message: 'Onboarding completed' });
  }
  if (path === '/api/user/api-key/status')
    return send(res, 200, {
      api_key_status: { has_key: Boolean(state.key), key_preview: state.key ? `${state.key.slice(0, 6)}...${state.key.slice(-4)}` : null, is_valid: state.valid },
    });
  if (path === '/api/user/api-key') {
    const body = await readJson(req);
    state.key = body.api_key ? body.api_key : null;
    state.valid = null;
    return send(res, 200, { message: body.api_key ? 'API key saved successfully' : 'API key deleted successfully' });
  }
  if (path === '/api/leads/test-api-key') {
    state.valid = Boolean(state.key);
    return send(res, 200, { message: state.valid ? 'API key is valid and working' : 'No API key configured', valid: state.valid });
  }
  if (path === '/api/leads/business-types')
    return send(res, 200, {
      groups: [
        { label: 'Food & Dining', types: [{ value: 'restaurant', label: 'Restaurant' }, { value: 'cafe', label: 'Cafe' }, { value: 'bakery', label: 'Bakery' }] },
        { label: 'Health & Medical', types: [{ value: 'dentist', label: 'Dentist' }, { value: 'doctor', label: 'Doctor' }] },
        { label: 'Home & Garden', types: [{ value: 'plumber', label: 'Plumber' }, { value: 'electrician', label: 'Electrician' }] },
      ],
    });
  if (path === '/api/leads/usage') {
    const limit = 10000;
    const percentage = (state.usage / limit) * 100;
    return send(res, 200, {
      success: true,
      data: {
        usage: { current: state.usage, limit, remaining: limit - state.usage, percentage },
        period: { resetDate: '2026-01-01', daysUntilReset: 12 },
        apiKey: { configured: Boolean(state.key), lastUpdated: null },
        tier: { current: 'free', name: 'Free' },
        status: { isOverLimit: percentage >= 100, isNearLimit: percentage >= 90, isApproachingLimit: percentage >= 75 },
        recommendations: percentage >= 75 ? ['Upgrade to Pro for 10,000 searches per month'] : [],
      },
    });
  }
  if (path === '/api/leads/search-stream') {
    const body = await readJson(req);
    if (!state.key) return send(res, 400, { error: 'no_api_key', message: 'Please add your Google Places API key in Settings before searching' });
    res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
    const total = /nowhere/i.test(body.location) ? 0 : 24;
    let id = 0;
    const emit = (data) => res.write(`id: ${++id}\ndata: ${JSON.stringify(data)}\n\n`);
    emit({ type: 'start', businessType: body.businessType, location: body.location });
    if (/fail/i.test(body.location)) {
      emit({ type: 'error', message: 'Places API (New) is not enabled for this key. Enable it in the Google Cloud console.' });
      return res.end();
    }
    const results = [];
    for (let i = 0; i < total; i += 1) {
      await new Promise((r) => setTimeout(r, 120));
      const l = lead(i, body.location);
      results.push(l);
      emit({ type: 'business_found', name: l.name, found: i + 1, total, lead: l });
    }
    state.usage += total;
    emit({ type: 'complete', results, search: { businessType: body.businessType, location: body.location }, usage: { current: state.usage } });
    return res.end();
  }
  // The history (issue #13): the mock keeps none, so the dashboard panel says so.
  if (path === '/api/leads/searches') return send(res, 200, { searches: [], replayMinutes: 10 });
  if (path === '/api/leads/sheets/auth-status')
    return send(res, 200, { success: true, authenticated: false, hasRefreshToken: false, needsReauth: true, message: 'Re-authentication required' });
  return send(res, 404, { error: 'not_found', message: 'Not found' });
}).listen(port, '127.0.0.1', () => console.log(`mock API on http://127.0.0.1:${port} (${state.mode})`));
