/** A selectable place type. */
export interface BusinessTypeOption {
  value: string;
  label: string;
}

/** A labelled group of place types, as `GET /api/leads/business-types` answers. */
export interface BusinessTypeGroup {
  label: string;
  types: BusinessTypeOption[];
}

const LABEL_OVERRIDES: Record<string, string> = {
  meal_takeaway: 'Takeaway',
  meal_delivery: 'Food Delivery',
  night_club: 'Night Club',
  food: 'Food (general)',
  veterinary_care: 'Veterinarian',
  health: 'Health (general)',
  real_estate_agency: 'Real Estate Agency',
  insurance_agency: 'Insurance Agency',
  accounting: 'Accountant',
  lawyer: 'Lawyer',
  hair_care: 'Hair Salon',
  gas_station: 'Gas Station',
  store: 'Store (general)',
  rv_park: 'RV Park',
  lodging: 'Hotel / Lodging',
};

function humanise(value: string): string {
  return (
    LABEL_OVERRIDES[value] ??
    value
      .split('_')
      .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
      .join(' ')
  );
}

function group(label: string, values: string[], overrides: Record<string, string> = {}): BusinessTypeGroup {
  return { label, types: values.map((value) => ({ value, label: overrides[value] ?? humanise(value) })) };
}

/**
 * The spec's catalogue (section 3), used until the API's list has loaded or if
 * it cannot be loaded. The API's list wins when present.
 */
export const FALLBACK_BUSINESS_TYPES: BusinessTypeGroup[] = [
  group('Food & Dining', ['restaurant', 'meal_takeaway', 'meal_delivery', 'cafe', 'bakery', 'bar', 'night_club', 'food']),
  group('Health & Medical', ['doctor', 'dentist', 'hospital', 'pharmacy', 'physiotherapist', 'veterinary_care', 'health']),
  group('Professional Services', ['lawyer', 'accounting', 'real_estate_agency', 'insurance_agency', 'finance', 'travel_agency']),
  group('Beauty & Wellness', ['beauty_salon', 'hair_care', 'spa', 'gym']),
  group('Automotive', ['car_dealer', 'car_rental', 'car_repair', 'car_wash', 'gas_station']),
  group('Shopping & Retail', [
    'clothing_store',
    'shoe_store',
    'jewelry_store',
    'electronics_store',
    'furniture_store',
    'home_goods_store',
    'supermarket',
    'convenience_store',
    'store',
  ]),
  group('Home & Garden', ['plumber', 'electrician', 'painter', 'roofing_contractor', 'general_contractor', 'locksmith', 'moving_company']),
  group('Education', ['school', 'university', 'primary_school', 'secondary_school']),
  group('Entertainment', ['movie_theater', 'amusement_park', 'bowling_alley', 'casino']),
  group('Lodging & Hospitality', ['lodging', 'tourist_attraction', 'rv_park', 'campground']),
  group('Transportation', ['taxi_stand', 'transit_station', 'airport', 'bus_station', 'train_station']),
  group('Technology & IT', ['electronics_store', 'store'], { store: 'Computer/Phone Repair' }),
  group('Personal Care', ['laundry', 'florist', 'pet_store', 'funeral_home']),
];

/** The label shown for a type value (first match), or the value itself. */
export function businessTypeLabel(groups: BusinessTypeGroup[], value: string): string {
  for (const g of groups) {
    const found = g.types.find((type) => type.value === value);
    if (found) return found.label;
  }
  return humanise(value);
}
