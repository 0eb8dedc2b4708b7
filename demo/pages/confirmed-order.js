    // Shared by the demo's pages (inlined in their module script): the order is
    // confirmed by the merchant's server once the backend's signed webhook reaches
    // it, so the page asks its own server until then. Only a final status ends the
    // wait (a hold, authorized, waits on the store's back office): a declined or
    // failed session can still be paid, and the webhook of a card declined in the
    // sheet may reach the store just before the one of the card that paid.
    const CONFIRMED = ['succeeded', 'authorized', 'captured', 'released', 'expired'];
    const confirmedOrder = (id) => askUntil(`/demo/orders/${encodeURIComponent(id)}`, (order) => (CONFIRMED.includes(order.status) ? order : undefined));

    // Asks the store's server for `path` every 250 ms until `found` picks something from its answer.
    async function askUntil(path, found) {
      for (;;) {
        const reply = await fetch(path);
        const value = reply.ok ? found(await reply.json()) : undefined;
        if (value !== undefined) return value;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    }

    // What each page does once the widget says paid: tell the shopper the store is confirming, then
    // show the order as the store confirmed it (`describe` words a status in the page's terms, or
    // gives nothing for the plain "Order status"), and hand it to `then`, the page's next step.
    const status = document.getElementById('order-status');
    function followOrder(waiting, describe, then) {
      document.getElementById('pay').addEventListener('checkout:success', async (event) => {
        status.textContent = waiting;
        status.dataset.orderStatus = 'confirming';
        const order = await confirmedOrder(event.detail.sessionId);
        status.textContent = describe(order) ?? `Order status: ${order.status}`;
        status.dataset.orderStatus = order.status;
        await then?.(order);
      });
    }
