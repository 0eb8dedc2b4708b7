/** @type {import('next').NextConfig} */
export default {
  poweredByHeader: false,
  eslint: { ignoreDuringBuilds: true },
};
