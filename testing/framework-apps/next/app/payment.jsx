'use client';
import { useState } from 'react';
import { WalletCheckout } from '@wallet-checkout/react';

/** The widget, a theme switch, and the widget's events as the shop shows them. */
export default function Payment({ host, clientSecret, sessionView, nonce }) {
  const [theme, setTheme] = useState('light');
  const [events, setEvents] = useState([]);
  const record = (name) => (detail) => setEvents((list) => [...list, [name, detail.sessionId, detail.code].filter(Boolean).join(' ')]);
  return (
    <>
      <WalletCheckout id="checkout" host={host} clientSecret={clientSecret} sessionView={sessionView} nonce={nonce} theme={theme}
        onReady={record('ready')} onSuccess={record('success')} onDecline={record('decline')} onError={record('error')} onCancel={record('cancel')} />
      <button id="dark" type="button" onClick={() => setTheme('dark')}>Dark theme</button>
      <ol id="events">{events.map((event, i) => <li key={i}>{event}</li>)}</ol>
    </>
  );
}
