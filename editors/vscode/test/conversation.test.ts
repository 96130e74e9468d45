import { strict as assert } from 'assert';
import { test } from 'node:test';
import { answerRequest, buttonRequest, emptyAnswerHint, isTurn, startRequest, Turn } from '../src/conversation';

// A turn as the server words it (the real server's turns are tested in test-server/).
const turn: Turn = {
  done: false,
  title: 'Q2 of 5 · Value Proposition',
  question: 'What unique value…?',
  answer: { id: 'answer', label: 'Answer', tooltip: 'Write the answer to Q2', command: 'charter.interview.turn', arguments: [{ uri: 'file:///p/charter.md', do: 'answer', question: 2 }] },
  buttons: [
    { id: 'skip', label: 'Skip', tooltip: 'Skip Q2', command: 'charter.interview.turn', arguments: [{ uri: 'file:///p/charter.md', do: 'skip', question: 2 }] },
    { id: 'finish', label: 'Finish', tooltip: 'Finish now', command: 'charter.interview.turn', arguments: [{ uri: 'file:///p/charter.md', do: 'finish' }] },
  ],
};

test('the requests are the ones the server put in the turn', () => {
  assert.deepEqual(startRequest('file:///p/charter.md'), { command: 'charter.interview.turn', arguments: [{ uri: 'file:///p/charter.md' }] });
  assert.deepEqual(answerRequest(turn, 'One search box.'), {
    command: 'charter.interview.turn',
    arguments: [{ uri: 'file:///p/charter.md', do: 'answer', question: 2, answer: 'One search box.' }],
  });
  assert.deepEqual(buttonRequest(turn.buttons[1]), { command: 'charter.interview.turn', arguments: [{ uri: 'file:///p/charter.md', do: 'finish' }] });
  assert.equal(answerRequest({ done: true, buttons: [] }, 'x'), undefined);
});

test('an empty answer names the server\'s buttons', () => {
  assert.match(emptyAnswerHint(turn), /Skip or Finish/);
  assert.doesNotMatch(emptyAnswerHint({ ...turn, buttons: [] }), /choose/);
});

test('isTurn tells a turn from another answer', () => {
  assert.equal(isTurn(turn), true);
  assert.equal(isTurn({ done: true, buttons: [] }), true);
  assert.equal(isTurn({ type: 'next_question' }), false);
  assert.equal(isTurn(null), false);
});
