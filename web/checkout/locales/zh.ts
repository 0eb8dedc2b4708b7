import type { Messages } from '.';

// 您, as mainland banks and payment apps address customers; full-width punctuation, a half-width space around
// Latin names as Google's own Chinese does. A hold is 预授权, a charge 扣款, the store 商家.
export const zh: Messages = {
  loading: '正在加载支付页面…',
  processing: '正在处理您的付款…',
  confirming: '正在确认您的付款，请勿关闭此页面。不会重复扣款。',
  paid: '付款成功，感谢您的购买！',
  unavailable: '此设备或浏览器不支持 Google Pay。请选择其他支付方式。',
  declined: '银行卡交易被拒绝，请换一张卡重试。',
  retry: '重试',
  authorized: '付款已授权。商家将在您的订单发货时从您的卡中扣款。',
  captured: '付款成功。商家已从您的卡中扣款。',
  released: '商家已取消此笔付款，并撤销了您卡上的预授权，不会向您扣款。',
  authenticating: '请完成银行验证以继续付款。',
  reviewOrder: '无法确认您订单的金额，未产生任何扣款。请检查您的订单后重试。',
  challenge: { title: '确认付款', frame: '银行身份验证（3-D Secure）', cancel: '取消' },
  errors: {
    invalid_client_secret: '此支付页面设置有误，请联系商家。',
    session_unauthorized: '无法验证此笔付款。请刷新页面，或返回商家页面重新下单。',
    origin_not_allowed: '此支付页面未针对本网站进行设置，请联系商家。',
    session_not_found: '找不到此笔付款，可能已失效。请返回商家页面重新下单。',
    session_expired: '此笔付款已失效，未产生任何扣款。请返回商家页面重新下单。',
    network_error: '无法连接支付服务器。请检查网络连接后重试。',
    server_error: '系统出现错误，请重试。',
    store_unavailable: '支付服务暂时不可用，请几秒钟后重试。不会重复扣款。',
    wallet_unavailable: '无法加载 Google Pay，请重试。',
    wallet_error: 'Google Pay 未能完成付款，请重试。',
    payment_failed: '付款未能完成，未产生任何扣款。请重试。',
    payment_not_completed: '您的付款尚未完成，未产生任何扣款。您可以重试。',
    challenge_blocked: '无法在此页面上显示银行验证，未产生任何扣款。请换一张卡或使用其他支付方式。',
  },
  saving: {
    agreements: {
      'saved_card.recurring.v1': '您允许 {merchant} 为{what}{period}从此卡扣款 {amount}，无需每次询问您，直到您向 {merchant} 取消为止。',
      'saved_card.unscheduled.v1': '您允许 {merchant} 保存此卡并从中扣款，无需每次询问您，用于支付您就{what}所欠的款项（包括购买后产生的费用），直到您要求 {merchant} 移除此卡为止。',
      'saved_card.reload.v1': '您允许 {merchant} 在{what}余额低于 {threshold} 时，每次从此卡扣款 {amount}，无需每次询问您，直到您向 {merchant} 取消为止。',
    },
    subjects: { recurring: '您的订阅', unscheduled: '您的购物', reload: '账户' },
    periods: { day: '每天', week: '每周', month: '每月', year: '每年', many: '每 {count}' },
    nothingToday: '今天不会扣款。',
  },
  declines: {
    card_declined: '银行卡交易被拒绝，请换一张卡重试。',
    insufficient_funds: '此卡余额或额度不足，请换一张卡重试。',
    expired_card: '此卡已过期，请换一张卡重试。',
    processing_error: '处理银行卡时出错，请稍后重试。',
    authentication_required: '此卡需要身份验证，但本次付款不支持验证。请换一张卡重试。',
    invalid_number: '卡号无效，请换一张卡重试。',
    authentication_failed: '银行未确认此笔付款。请重试，或换一张卡。',
    authentication_abandoned: '银行验证未完成。您可以重试。',
  },
};
