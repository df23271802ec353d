import { describe, expect, it } from 'vitest';
import { choiceInWords, defaultSchedule, scheduleInWords, scheduleToSpec, specToSchedule, type ScheduleChoice } from './schedule';

const base: ScheduleChoice = { frequency: 'daily', weekday: 1, dayOfMonth: 1, time: '09:00', timeZone: 'Europe/Paris' };

describe('scheduleToSpec', () => {
  it('writes daily, weekly and monthly as five-field cron in the chosen zone', () => {
    expect(scheduleToSpec(base)).toEqual({ cron: '0 9 * * *', timeZone: 'Europe/Paris' });
    expect(scheduleToSpec({ ...base, frequency: 'weekly', weekday: 5, time: '17:30' })?.cron).toBe('30 17 * * 5');
    expect(scheduleToSpec({ ...base, frequency: 'monthly', dayOfMonth: 15, time: '00:05' })?.cron).toBe('5 0 15 * *');
  });

  it('refuses a time that is not HH:MM', () => {
    expect(scheduleToSpec({ ...base, time: '' })).toBeNull();
    expect(scheduleToSpec({ ...base, time: '24:00' })).toBeNull();
    expect(scheduleToSpec({ ...base, time: '9:60' })).toBeNull();
  });
});

describe('specToSchedule', () => {
  it('reads back every choice the form writes', () => {
    const choices: ScheduleChoice[] = [
      { ...base, time: '23:59' },
      { ...base, frequency: 'weekly', weekday: 0, time: '06:15' },
      { ...base, frequency: 'weekly', weekday: 6 },
      { ...base, frequency: 'monthly', dayOfMonth: 28, time: '12:00' },
    ];
    for (const choice of choices) {
      const spec = scheduleToSpec(choice);
      expect(spec).not.toBeNull();
      const back = specToSchedule(spec!);
      expect(back?.frequency).toBe(choice.frequency);
      expect(back?.time).toBe(choice.time);
      if (choice.frequency === 'weekly') expect(back?.weekday).toBe(choice.weekday);
      if (choice.frequency === 'monthly') expect(back?.dayOfMonth).toBe(choice.dayOfMonth);
    }
  });

  it('reads 7 as Sunday and gives up on what the form cannot make', () => {
    expect(specToSchedule({ cron: '0 9 * * 7', timeZone: 'UTC' })?.weekday).toBe(0);
    expect(specToSchedule({ cron: '*/15 * * * *', timeZone: 'UTC' })).toBeNull();
    expect(specToSchedule({ cron: '0 9 * * 1-5', timeZone: 'UTC' })).toBeNull();
    expect(specToSchedule({ cron: '0 9 1 1 *', timeZone: 'UTC' })).toBeNull();
    expect(specToSchedule({ cron: '0 9 * *', timeZone: 'UTC' })).toBeNull();
  });
});

describe('in words', () => {
  it('says each frequency plainly', () => {
    expect(choiceInWords(base)).toBe('Every day at 09:00');
    expect(choiceInWords({ ...base, frequency: 'weekly', weekday: 1 })).toBe('Every Monday at 09:00');
    expect(choiceInWords({ ...base, frequency: 'monthly', dayOfMonth: 2 })).toBe('On the 2nd of every month at 09:00');
    expect(choiceInWords({ ...base, frequency: 'monthly', dayOfMonth: 11 })).toBe('On the 11th of every month at 09:00');
    expect(choiceInWords({ ...base, frequency: 'monthly', dayOfMonth: 21 })).toBe('On the 21st of every month at 09:00');
  });

  it('names the zone, shows a foreign expression as it is, and says when there is none', () => {
    expect(scheduleInWords({ cron: '30 8 * * 1', timeZone: 'America/Chicago' })).toBe('Every Monday at 08:30 (America/Chicago)');
    expect(scheduleInWords({ cron: '*/30 * * * *', timeZone: 'UTC' })).toBe('Cron */30 * * * * (UTC)');
    expect(scheduleInWords(null)).toBe('Only when run by hand');
  });

  it('starts on Mondays at nine in the zone given', () => {
    expect(scheduleToSpec(defaultSchedule('Asia/Tokyo'))).toEqual({ cron: '0 9 * * 1', timeZone: 'Asia/Tokyo' });
  });
});
