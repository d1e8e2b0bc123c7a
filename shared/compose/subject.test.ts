import { describe, expect, test } from 'vitest';
import { baseSubject, forwardSubject, replySubject } from './subject.ts';

describe('reply and forward subjects', () => {
  test.each([
    ['Quarterly report', 'Re: Quarterly report'],
    ['Re: Quarterly report', 'Re: Quarterly report'],
    ['RE: Quarterly report', 'Re: Quarterly report'],
    ['re:Quarterly report', 'Re: Quarterly report'],
    ['Re: Re: Re: Quarterly report', 'Re: Quarterly report'],
    ['Re[2]: Quarterly report', 'Re: Quarterly report'],
    ['RE(3): Quarterly report', 'Re: Quarterly report'],
    ['RE : Rapport trimestriel', 'Re: Rapport trimestriel'], // French Outlook: a space before the colon
    ['AW: Quartalsbericht', 'Re: Quartalsbericht'],
    ['Aw: WG: Quartalsbericht', 'Re: Quartalsbericht'],
    ['Antw: Kwartaalrapport', 'Re: Kwartaalrapport'],
    ['Antwort: Quartalsbericht', 'Re: Quartalsbericht'],
    ['SV: Kvartalsrapport', 'Re: Kvartalsrapport'],
    ['VS: Neljännesraportti', 'Re: Neljännesraportti'],
    ['Réf: Rapport trimestriel', 'Re: Rapport trimestriel'],
    ['RÉF : Rapport trimestriel', 'Re: Rapport trimestriel'],
    ['Re\u0301f: Rapport trimestriel', 'Re: Rapport trimestriel'], // a combining accent
    ['RIF: Rapporto trimestrale', 'Re: Rapporto trimestrale'],
    ['Odp: Raport kwartalny', 'Re: Raport kwartalny'],
    ['回复: 季度报告', 'Re: 季度报告'],
    ['回复：季度报告', 'Re: 季度报告'], // a full-width colon
    ['答复: 转发: 季度报告', 'Re: 季度报告'],
    ['Fwd: Quarterly report', 'Re: Quarterly report'],
    ['FW: Re: Quarterly report', 'Re: Quarterly report'],
    ['TR: Rapport trimestriel', 'Re: Rapport trimestriel'],
    ['RV: Informe trimestral', 'Re: Informe trimestral'],
    ['  Re:   Quarterly report  ', 'Re: Quarterly report'],
    ['', 'Re:'],
    ['Re:', 'Re:'],
  ])('a reply to %j is %j', (subject, expected) => {
    expect(replySubject(subject)).toBe(expected);
  });

  test.each([
    ['Quarterly report', 'Fwd: Quarterly report'],
    ['Fwd: Quarterly report', 'Fwd: Quarterly report'],
    ['FWD: FW: Fw: Quarterly report', 'Fwd: Quarterly report'],
    ['WG: Quartalsbericht', 'Fwd: Quartalsbericht'],
    ['Re: Quarterly report', 'Fwd: Quarterly report'],
    ['RE: TR: RV: Informe', 'Fwd: Informe'],
    ['VB: Kvartalsrapport', 'Fwd: Kvartalsrapport'],
    ['Doorst: Kwartaalrapport', 'Fwd: Kwartaalrapport'],
  ])('a forward of %j is %j', (subject, expected) => {
    expect(forwardSubject(subject)).toBe(expected);
  });

  test.each([
    ['Rebate: 50% off', 'a word that starts like a prefix'],
    ['Trade: the new terms', 'tr followed by more letters'],
    ['R: plotting help', 'a one-letter prefix (Italian R:) is too likely a word'],
    ['I: introductions', 'so is I:'],
    ['Subject with Re: inside', 'a prefix that is not at the start'],
    ['[team] Re: lunch', "a list's tag before the prefix"],
  ])('%j keeps its words (%s)', (subject) => {
    expect(baseSubject(subject)).toBe(subject);
    expect(replySubject(subject)).toBe(`Re: ${subject}`);
  });
});
