import { StrictMode, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { WalletCheckout } from '@wallet-checkout/react';

/** The shop's checkout page: the session its server created, the widget, a theme switch, and the widget's events as the shop shows them. */
function Checkout() {
  const [session, setSession] = useState();
  const [theme, setTheme] = useState('light');
  const [events, setEvents] = useState([]);
  useEffect(() => void fetch('/checkout-session').then((reply) => reply.json()).then(setSession), []);
  const record = (name) => (detail) => setEvents((list) => [...list, [name, detail.sessionId, detail.code].filter(Boolean).join(' ')]);
  return (
    <main>
      {session && (
        <WalletCheckout id="checkout" host={session.host} clientSecret={session.clientSecret} sessionView={session.sessionView} nonce={session.nonce} theme={theme}
          onReady={record('ready')} onSuccess={record('success')} onDecline={record('decline')} onError={record('error')} onCancel={record('cancel')} />
      )}
      <button id="dark" type="button" onClick={() => setTheme('dark')}>Dark theme</button>
      <ol id="events">{events.map((event, i) => <li key={i}>{event}</li>)}</ol>
    </main>
  );
}

createRoot(document.getElementById('app')).render(<StrictMode><Checkout /></StrictMode>);
