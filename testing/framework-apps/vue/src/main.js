import { createApp } from 'vue';
import Checkout from './Checkout.vue';

createApp(Checkout).mount('#app');
