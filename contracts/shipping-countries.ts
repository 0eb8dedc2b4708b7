/**
 * Google's `shippingAddressParameters.allowedCountryCodes`: the wallet offers only the shopper's
 * addresses in those countries, or every address when the request names none. One rule for the
 * sandbox wallet's sheet (which shows them) and its server (which refuses any other).
 */
export const allowedShippingAddresses = <T extends { address: { countryCode: string } }>(addresses: readonly T[], allowedCountryCodes: readonly string[] | undefined): T[] =>
  addresses.filter((choice) => !allowedCountryCodes || allowedCountryCodes.includes(choice.address.countryCode));
