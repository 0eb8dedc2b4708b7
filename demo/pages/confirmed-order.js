    // Shared by the demo's pages (inlined in their module script): the order is
    // confirmed by the merchant's server once the backend's signed webhook reaches
    // it, so the page asks its own server until then.
    const CONFIRMED = ['succeeded', 'authorized', 'captured', 'released', 'declined', 'failed'];
    async function confirmedOrder(id) {
      for (;;) {
        const reply = await fetch(`/demo/orders/${encodeURIComponent(id)}`);
        const order = reply.ok ? await reply.json() : undefined;
        if (order && CONFIRMED.includes(order.status)) return order;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    }
