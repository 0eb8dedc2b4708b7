    // Shared by the demo's pages (inlined in their module script): the order is
    // confirmed by the merchant's server once the backend's signed webhook reaches
    // it, so the page asks its own server until then. Only a final status ends the
    // wait (a hold, authorized, waits on the store's back office): a declined or
    // failed session can still be paid, and the webhook of a card declined in the
    // sheet may reach the store just before the one of the card that paid.
    const CONFIRMED = ['succeeded', 'authorized', 'captured', 'released', 'expired'];
    async function confirmedOrder(id) {
      for (;;) {
        const reply = await fetch(`/demo/orders/${encodeURIComponent(id)}`);
        const order = reply.ok ? await reply.json() : undefined;
        if (order && CONFIRMED.includes(order.status)) return order;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    }
