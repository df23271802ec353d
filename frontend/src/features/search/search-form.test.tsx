import { fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { FALLBACK_BUSINESS_TYPES } from './business-types';
import { SearchForm } from './search-form';

function setup(props: Partial<Parameters<typeof SearchForm>[0]> = {}) {
  const onSearch = vi.fn();
  render(<SearchForm groups={FALLBACK_BUSINESS_TYPES} hasApiKey isSearching={false} onSearch={onSearch} {...props} />);
  return { onSearch, user: userEvent.setup() };
}

describe('SearchForm', () => {
  it('enables Search only once a type and a location are given, and sends the trimmed location', async () => {
    const { onSearch, user } = setup();
    const button = screen.getByRole('button', { name: 'Search' });
    expect(button).toBeDisabled();
    await user.selectOptions(screen.getByLabelText('Business type'), 'dentist');
    expect(button).toBeDisabled();
    await user.type(screen.getByLabelText('Location'), '   ');
    expect(button).toBeDisabled();
    await user.type(screen.getByLabelText('Location'), 'Austin, TX  ');
    expect(button).toBeEnabled();
    await user.click(button);
    expect(onSearch).toHaveBeenCalledWith({ businessType: 'dentist', location: 'Austin, TX' });
  });

  it('stays disabled without an API key and explains why on submit', async () => {
    const { onSearch, user } = setup({ hasApiKey: false });
    await user.selectOptions(screen.getByLabelText('Business type'), 'cafe');
    await user.type(screen.getByLabelText('Location'), 'Paris');
    expect(screen.getByRole('button', { name: 'Search' })).toBeDisabled();
    fireEvent.submit(screen.getByLabelText('Location').closest('form')!);
    expect(screen.getByRole('alert')).toHaveTextContent('Please add your Google Places API key in Settings before searching');
    expect(onSearch).not.toHaveBeenCalled();
  });

  it('asks for type and location when submitted empty', () => {
    const { onSearch } = setup();
    fireEvent.submit(screen.getByLabelText('Location').closest('form')!);
    expect(screen.getByRole('alert')).toHaveTextContent('Please select a business type and enter a location');
    expect(onSearch).not.toHaveBeenCalled();
  });

  it('disables the fields while a search runs', () => {
    setup({ isSearching: true });
    expect(screen.getByLabelText('Business type')).toBeDisabled();
    expect(screen.getByLabelText('Location')).toBeDisabled();
    expect(screen.getByRole('button', { name: /Searching/ })).toBeDisabled();
  });

  it('lists the catalogue grouped, with the Technology & IT store labelled Computer/Phone Repair', () => {
    setup();
    const group = screen.getByRole('group', { name: 'Technology & IT' });
    expect(group).toHaveTextContent('Computer/Phone Repair');
  });
});
