import type { Messages } from '.';

// "Bạn" with "Vui lòng", as Google Pay's own Vietnamese and the big shopping apps write ("Quý khách" reads as a
// bank letter at a checkout). A hold is khoản tạm giữ, a charge trừ tiền, the store cửa hàng.
export const vi: Messages = {
  loading: 'Đang tải trang thanh toán…',
  processing: 'Đang xử lý thanh toán…',
  confirming: 'Chúng tôi đang xác nhận thanh toán của bạn. Vui lòng không đóng trang này: bạn sẽ không bị trừ tiền hai lần.',
  paid: 'Thanh toán thành công. Cảm ơn bạn!',
  unavailable: 'Google Pay không khả dụng trên thiết bị hoặc trình duyệt này. Vui lòng chọn phương thức thanh toán khác.',
  declined: 'Thẻ của bạn đã bị từ chối. Vui lòng thử lại bằng thẻ khác.',
  retry: 'Thử lại',
  authorized: 'Thanh toán đã được chấp thuận. Cửa hàng sẽ trừ tiền từ thẻ của bạn khi gửi hàng.',
  captured: 'Thanh toán hoàn tất. Cửa hàng đã trừ tiền từ thẻ của bạn.',
  released: 'Cửa hàng đã hủy khoản thanh toán này và giải tỏa khoản tạm giữ trên thẻ của bạn: bạn sẽ không bị trừ tiền.',
  authenticating: 'Vui lòng xác nhận thanh toán với ngân hàng của bạn để tiếp tục.',
  reviewOrder: 'Không thể xác nhận giá đơn hàng của bạn và bạn chưa bị trừ tiền. Vui lòng xem lại đơn hàng và thử lại.',
  challenge: { title: 'Xác nhận thanh toán', frame: 'Xác thực từ ngân hàng của bạn (3-D Secure)', cancel: 'Hủy' },
  errors: {
    invalid_client_secret: 'Trang thanh toán này chưa được thiết lập đúng. Vui lòng liên hệ với cửa hàng.',
    session_unauthorized: 'Không thể xác minh khoản thanh toán này. Vui lòng tải lại trang hoặc quay lại cửa hàng để bắt đầu lại.',
    origin_not_allowed: 'Trang thanh toán này chưa được thiết lập cho trang web này. Vui lòng liên hệ với cửa hàng.',
    session_not_found: 'Không tìm thấy khoản thanh toán này. Có thể phiên đã hết hạn: vui lòng quay lại cửa hàng để bắt đầu lại.',
    session_expired: 'Phiên thanh toán này đã hết hạn và bạn chưa bị trừ tiền. Vui lòng quay lại cửa hàng để bắt đầu lại.',
    network_error: 'Không thể kết nối với máy chủ thanh toán. Vui lòng kiểm tra kết nối mạng và thử lại.',
    server_error: 'Đã xảy ra lỗi từ phía chúng tôi. Vui lòng thử lại.',
    store_unavailable: 'Thanh toán tạm thời gián đoạn. Vui lòng thử lại sau vài giây: bạn sẽ không bị trừ tiền hai lần.',
    wallet_unavailable: 'Không thể tải Google Pay. Vui lòng thử lại.',
    wallet_error: 'Google Pay không thể hoàn tất thanh toán. Vui lòng thử lại.',
    payment_failed: 'Không thể hoàn tất thanh toán và bạn chưa bị trừ tiền. Vui lòng thử lại.',
    payment_not_completed: 'Thanh toán của bạn chưa hoàn tất và bạn chưa bị trừ tiền. Bạn có thể thử lại.',
    challenge_blocked: 'Không thể hiển thị bước xác thực của ngân hàng trên trang này và bạn chưa bị trừ tiền. Vui lòng thử thẻ khác hoặc phương thức thanh toán khác.',
  },
  saving: {
    agreements: {
      'saved_card.recurring.v1': 'Bạn cho phép {merchant} trừ {amount} vào thẻ này {period} cho {what}, mà không hỏi bạn mỗi lần, cho đến khi bạn hủy với {merchant}.',
      'saved_card.unscheduled.v1': 'Bạn cho phép {merchant} lưu thẻ này và trừ tiền vào thẻ, mà không hỏi bạn mỗi lần, cho khoản bạn nợ đối với {what}, bao gồm các khoản phí phát sinh sau khi mua, cho đến khi bạn yêu cầu {merchant} xóa thẻ.',
      'saved_card.reload.v1': 'Bạn cho phép {merchant} trừ {amount} vào thẻ này mỗi khi số dư {what} xuống dưới {threshold}, mà không hỏi bạn mỗi lần, cho đến khi bạn hủy với {merchant}.',
    },
    subjects: { recurring: 'gói đăng ký của bạn', unscheduled: 'các giao dịch mua của bạn', reload: 'tài khoản của bạn' },
    periods: { day: 'mỗi ngày', week: 'mỗi tuần', month: 'mỗi tháng', year: 'mỗi năm', many: 'mỗi {count}' },
    nothingToday: 'Hôm nay bạn không bị trừ tiền.',
  },
  declines: {
    card_declined: 'Thẻ của bạn đã bị từ chối. Vui lòng thử lại bằng thẻ khác.',
    insufficient_funds: 'Thẻ không đủ số dư hoặc hạn mức. Vui lòng thử lại bằng thẻ khác.',
    expired_card: 'Thẻ này đã hết hạn. Vui lòng thử lại bằng thẻ khác.',
    processing_error: 'Đã xảy ra lỗi khi xử lý thẻ. Vui lòng thử lại sau giây lát.',
    authentication_required: 'Thẻ này yêu cầu xác thực nhưng khoản thanh toán này không hỗ trợ. Vui lòng thử lại bằng thẻ khác.',
    invalid_number: 'Số thẻ không hợp lệ. Vui lòng thử lại bằng thẻ khác.',
    authentication_failed: 'Ngân hàng của bạn chưa xác nhận thanh toán. Vui lòng thử lại hoặc dùng thẻ khác.',
    authentication_abandoned: 'Bước xác thực của ngân hàng chưa hoàn tất. Bạn có thể thử lại.',
  },
};
