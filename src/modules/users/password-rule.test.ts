import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isPasswordTooShort, MIN_PASSWORD_LENGTH } from './password-rule.js';
import { checkPassword } from './rules.js';

test('a password is measured in characters as a person counts them, by the API and the dashboard alike', () => {
  assert.equal(MIN_PASSWORD_LENGTH, 12);
  // 11 emoji are 22 UTF-16 code units: still 11 characters, too short for both.
  const elevenEmoji = '😀'.repeat(11);
  assert.equal(elevenEmoji.length, 22);
  assert.equal(isPasswordTooShort(elevenEmoji), true);
  const refused = checkPassword(elevenEmoji);
  assert.equal(refused?.code, 'VALIDATION_ERROR');
  assert.equal(refused?.details?.[0]?.field, 'password');
  for (const enough of ['😀 gato 🙂 no telhado 😎', 'senha forte1 de verdade']) {
    assert.equal(isPasswordTooShort(enough), false, enough);
    assert.equal(checkPassword(enough), undefined, enough);
  }
  assert.equal(isPasswordTooShort('a'.repeat(12)), false, 'long enough, refused for another reason');
  assert.equal(isPasswordTooShort('a'.repeat(11)), true);
});

test('a repetitive password is refused, naming the field, in both languages', () => {
  for (const repetitive of ['aaaaaaaaaaaa', 'abcabcabcabc', 'ABCabcABCabc', '121212121212', '1111222233334444', 'abcdefghijklmn', '123456789012', '987654321098', 'correct horse correct horse ']) {
    const refused = checkPassword(repetitive, 'newPassword');
    assert.equal(refused?.details?.[0]?.field, 'newPassword', repetitive);
    assert.match(refused!.details![0]!.message.en, /too repetitive/, repetitive);
    assert.match(refused!.details![0]!.message['pt-BR'], /repetitiva demais/, repetitive);
  }
});

test("a password holding the user's e-mail or its local part is refused", () => {
  for (const withEmail of ['maria.silva@loja.example!', 'MariaSilva2024!!', 'sou a maria.silva mesmo', 'maria_silva é quem manda']) {
    const refused = checkPassword(withEmail, 'password', 'maria.silva@loja.example');
    assert.match(refused?.details?.[0]?.message.en ?? '', /e-mail/, withEmail);
    assert.equal(checkPassword(withEmail, 'password', 'outra.pessoa@loja.example'), undefined, `${withEmail} is fine for another user`);
  }
  // A short local part is inside too many phrases to refuse them; the whole e-mail still is.
  assert.equal(checkPassword('banana split de sobremesa', 'password', 'ana@loja.example'), undefined);
  assert.ok(checkPassword('ana@loja.example 2024', 'password', 'ana@loja.example'));
});

test('the most common passwords (the bundled list) are refused, with digits, symbols, case and swapped letters folded', () => {
  for (const common of ['password1234', 'Password@2024', 'p@ssw0rd1234!', 'senha123456789', 'Senha@2024!!', 'flamengo2019', 'Palmeiras#123', 'iloveyou1234', 'qwertyuiop12', '1q2w3e4r5t6y', '1qaz2wsx3edc', 'QWERTY 123456', 'teamo123456789', 'Minha Senha 2024', 'correcthorsebatterystaple']) {
    const refused = checkPassword(common);
    assert.match(refused?.details?.[0]?.message.en ?? '', /most common passwords/, common);
    assert.match(refused!.details![0]!.message['pt-BR'], /senhas mais comuns/, common);
  }
  for (const fine of ['correct horse battery', 'uma senha longa o bastante', 'flamengo e vasco no domingo', 'a new password!', 'another password', 'senha forte1 de verdade']) {
    assert.equal(checkPassword(fine), undefined, fine);
  }
});
